import { createHttpApp, costCenterResource, workScheduleResource } from '@workplan/adapter-express';
import { MemoryRecordRepository } from '@workplan/adapter-memory';
import { costCenter, createWorkplan, systemClock, workSchedule } from '@workplan/core';
import { ContainerModule } from 'inversify';
import { v7 as uuidV7 } from 'uuid';
import { ids } from './identifiers.js';

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
  bind(ids.storage).toConstantValue({ isReady: () => Promise.resolve(true), close: () => Promise.resolve() });
});

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
