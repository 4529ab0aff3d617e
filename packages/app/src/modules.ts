import { resolve } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { createHttpApp, httpResourcesOf, type ResponseObserver } from '@workplan/adapter-express';
import { createMemoryStorage, MemoryDeliveryLedger } from '@workplan/adapter-memory';
import { consoleDirectory } from '@workplan/console';
import { createUuidV7Generator, createWorkplan, systemClock, type Kinds } from '@workplan/core';
import { ContainerModule } from 'inversify';
import { ids } from './identifiers.js';
import { createLogger, createLogOutput, logAnswered } from './logger.js';
import { ServiceMetrics } from './metrics.js';
import { registerSqliteSizes } from './sqlite-metrics.js';
import { webhooksRead } from './webhooks-module.js';

/** The domain: the catalogs and the changes feed over whichever repositories and change log the storage module bound. */
export const coreModule = new ContainerModule(({ bind }) => {
  bind(ids.clock).toConstantValue(systemClock);
  bind(ids.idGenerator).toConstantValue(createUuidV7Generator());
  bind(ids.workplan)
    .toResolvedValue(
      (kinds, repositories, changes, clock, idGenerator, config) =>
        // The feed's shared reader hands a change to its followers a slice a turn, the event loop's I/O between two.
        createWorkplan({ repositories, kinds, changes, clock, ids: idGenerator, maxPageSize: config.listMaxLimit, giveWay: () => setImmediate() }),
      [ids.kinds, ids.repositories, ids.changes, ids.clock, ids.idGenerator, ids.config],
    )
    .inSingletonScope();
});

/** Records in the process only: for tests, and for trying the service without a file. */
export const memoryStorageModule = (kinds: Kinds): ContainerModule => new ContainerModule(({ bind }) => {
  // Made per container: each service started in one process (tests start several) has its own.
  const storage = createMemoryStorage({ kinds });
  bind(ids.repositories).toConstantValue(storage.repositories);
  bind(ids.changes).toConstantValue(storage.changes);
  bind(ids.deliveryLedger).toConstantValue(new MemoryDeliveryLedger());
  // One process holds the records, so it may as well hold the rate limits' counts.
  bind(ids.hitCounter).toConstantValue(null);
  bind(ids.storage).toConstantValue({
    open: () => undefined,
    isReady: () => Promise.resolve(true),
    close: () => Promise.resolve(),
  });
});

/** Logs and metrics, made once for the process. */
export const observabilityModule = new ContainerModule(({ bind }) => {
  bind(ids.logOutput).toResolvedValue((config) => createLogOutput(config), [ids.config]);
  bind(ids.logger).toResolvedValue((config, output) => createLogger(config, output), [ids.config, ids.logOutput]);
  bind(ids.metrics).toResolvedValue(
    (config, storage) => {
      if (!config.metrics) return null;
      const metrics = new ServiceMetrics(() => storage.isReady(), config.followerBounds);
      if (config.storage === 'sqlite') registerSqliteSizes(metrics.registry, resolve(config.sqlitePath));
      return metrics;
    },
    [ids.config, ids.storage],
  );
  bind(ids.responseObserver).toResolvedValue(
    (logger, metrics): ResponseObserver => (answered) => {
      logAnswered(logger, answered);
      metrics?.observe(answered);
    },
    [ids.logger, ids.metrics],
  );
});

/** The HTTP face, built once; nothing is looked up in the container per request. */
export const httpModule = new ContainerModule(({ bind }) => {
  bind(ids.httpApp)
    .toResolvedValue(
      (workplan, apiKeys, storage, hitCounter, config, logger, metrics, onResponse, webhooks) =>
        createHttpApp({
          resources: httpResourcesOf(workplan),
          changes: workplan.changes,
          keys: apiKeys,
          isReady: () => storage.isReady(),
          onUnexpectedError: (error) => {
            logger.error({ err: error }, 'unexpected error while serving a request');
          },
          onLateResult: ({ error, ...late }) => {
            logger.debug({ ...late, ...(error === undefined ? {} : { err: error }) }, 'late result dropped: the deadline had answered');
          },
          onResponse,
          ...(config.rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: config.rateLimitPerMinute }),
          ...(hitCounter === null ? {} : { hitCounter }),
          ...(config.trustProxy === undefined ? {} : { trustProxy: config.trustProxy }),
          corsOrigins: config.corsOrigins,
          requestTimeoutMs: config.requestTimeoutMs,
          consoleDirectory,
          routes: metrics === null ? [] : [metrics.router()],
          followerBounds: config.followerBounds,
          ...(metrics === null ? {} : { onFollowerHeld: metrics.followerHeld, onFollowerRefused: metrics.followerRefused }),
          reads: [webhooksRead(webhooks)],
        }),
      [ids.workplan, ids.apiKeys, ids.storage, ids.hitCounter, ids.config, ids.logger, ids.metrics, ids.responseObserver, ids.webhooks],
    )
    .inSingletonScope();
});
