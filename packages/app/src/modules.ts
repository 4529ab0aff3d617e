import { createHttpApp, costCenterResource, workScheduleResource } from '@workplan/adapter-express';
import { MemoryRecordRepository } from '@workplan/adapter-memory';
import { costCenter, createWorkplan, systemClock, workSchedule } from '@workplan/core';
import { MongoStorage } from '@workplan/adapter-mongodb';
import { ContainerModule } from 'inversify';
import { v7 as uuidV7 } from 'uuid';
import { type Config } from './config.js';
import { ids } from './identifiers.js';
import { MongoConnection } from './mongo-connection.js';

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

/** MongoDB: one client for both repositories, gated until its indexes exist. */
export function mongoStorageModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    const storage = new MongoStorage({
      uri: config.mongodbUri ?? '',
      serverSelectionTimeoutMS: config.mongodbTimeoutMs,
    });
    const connection = new MongoConnection(storage, (message) => {
      console.warn(message);
    });
    bind(ids.storage).toConstantValue(connection);
    bind(ids.workScheduleRepository).toConstantValue(connection.gate(storage.workSchedules));
    bind(ids.costCenterRepository).toConstantValue(connection.gate(storage.costCenters));
  });
}

/** The HTTP face, built once; nothing is looked up in the container per request. */
export const httpModule = new ContainerModule(({ bind }) => {
  bind(ids.httpApp)
    .toResolvedValue(
      (workplan, apiKeys, storage) =>
        createHttpApp({
          resources: [workScheduleResource(workplan.workSchedules), costCenterResource(workplan.costCenters)],
          keys: apiKeys,
          isReady: () => storage.isReady(),
          onUnexpectedError: (error) => {
            console.error('unexpected error while serving a request', error);
          },
        }),
      [ids.workplan, ids.apiKeys, ids.storage],
    )
    .inSingletonScope();
});
