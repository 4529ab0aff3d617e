import { createHttpApp, costCenterResource, workScheduleResource } from '@workplan/adapter-express';
import { MemoryRecordRepository } from '@workplan/adapter-memory';
import { costCenter, createWorkplan, systemClock, workSchedule } from '@workplan/core';
import { ContainerModule } from 'inversify';
import { v7 as uuidV7 } from 'uuid';
import { ids } from './identifiers.js';
import { createLogger, logAnswered } from './logger.js';
import { ServiceMetrics } from './metrics.js';

/** The domain: the catalogs over whichever repositories the storage module bound. */
export const coreModule = new ContainerModule(({ bind }) => {
  bind(ids.clock).toConstantValue(systemClock);
  bind(ids.idGenerator).toConstantValue({ next: () => uuidV7() });
  bind(ids.workplan)
    .toResolvedValue(
      (workSchedules, costCenters, clock, idGenerator, config) =>
        createWorkplan({ workSchedules, costCenters, clock, ids: idGenerator, maxPageSize: config.listMaxLimit }),
      [ids.workScheduleRepository, ids.costCenterRepository, ids.clock, ids.idGenerator, ids.config],
    )
    .inSingletonScope();
});

/** The embedded default storage. */
export const memoryStorageModule = new ContainerModule(({ bind }) => {
  bind(ids.workScheduleRepository).toConstantValue(new MemoryRecordRepository(workSchedule));
  bind(ids.costCenterRepository).toConstantValue(new MemoryRecordRepository(costCenter));
  bind(ids.storage).toConstantValue({
    open: () => undefined,
    isReady: () => Promise.resolve(true),
    close: () => Promise.resolve(),
  });
});

/** Logs and metrics, made once for the process. */
export const observabilityModule = new ContainerModule(({ bind }) => {
  bind(ids.logger).toResolvedValue((config) => createLogger(config), [ids.config]);
  bind(ids.metrics).toResolvedValue((config) => (config.metrics ? new ServiceMetrics() : null), [ids.config]);
});

/** The HTTP face, built once; nothing is looked up in the container per request. */
export const httpModule = new ContainerModule(({ bind }) => {
  bind(ids.httpApp)
    .toResolvedValue(
      (workplan, apiKeys, storage, config, logger, metrics) =>
        createHttpApp({
          resources: [workScheduleResource(workplan.workSchedules), costCenterResource(workplan.costCenters)],
          keys: apiKeys,
          isReady: () => storage.isReady(),
          onUnexpectedError: (error) => {
            logger.error({ err: error }, 'unexpected error while serving a request');
          },
          onResponse: (answered) => {
            logAnswered(logger, answered);
            metrics?.observe(answered);
          },
          ...(config.rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: config.rateLimitPerMinute }),
          ...(config.trustProxy === undefined ? {} : { trustProxy: config.trustProxy }),
          corsOrigins: config.corsOrigins,
          requestTimeoutMs: config.requestTimeoutMs,
          routes: metrics === null ? [] : [metrics.router()],
        }),
      [ids.workplan, ids.apiKeys, ids.storage, ids.config, ids.logger, ids.metrics],
    )
    .inSingletonScope();
});
