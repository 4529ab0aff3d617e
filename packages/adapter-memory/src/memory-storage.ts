import { repositoriesOf, seedKinds, type Kinds, type Repositories, type SeedKinds } from '@workplan/core';
import { MemoryChangeLog } from './memory-change-log.js';
import { MemoryRecordRepository } from './memory-repository.js';

/** A repository per kind of record, all keeping their changes in one log. */
export interface MemoryStorage<K extends Kinds = SeedKinds> {
  readonly repositories: Repositories<K>;
  readonly changes: MemoryChangeLog;
}

/** Records of the kinds given and their changes in this process's memory: what `createWorkplan` takes, for tests and trials. */
export function createMemoryStorage<K extends Kinds>(options: { readonly kinds: K }): MemoryStorage<K>;
/** The same for the seed's kinds. */
export function createMemoryStorage(): MemoryStorage;
export function createMemoryStorage(options?: { readonly kinds: Kinds }): MemoryStorage<Kinds> | MemoryStorage {
  const changes = new MemoryChangeLog();
  return { repositories: repositoriesOf(options?.kinds ?? seedKinds, (kind) => new MemoryRecordRepository(kind, { changes })), changes };
}
