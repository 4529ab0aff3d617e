import { repositoriesOf, type Repositories } from '@workplan/core';
import { MemoryChangeLog } from './memory-change-log.js';
import { MemoryRecordRepository } from './memory-repository.js';

/** A repository per kind of record, all keeping their changes in one log. */
export interface MemoryStorage {
  readonly repositories: Repositories;
  readonly changes: MemoryChangeLog;
}

/** Records and their changes in this process's memory: what `createWorkplan` takes, for tests and trials. */
export function createMemoryStorage(): MemoryStorage {
  const changes = new MemoryChangeLog();
  return { repositories: repositoriesOf((kind) => new MemoryRecordRepository(kind, { changes })), changes };
}
