import { type ChangeLog, type Repositories } from '@workplan/core';

/** A storage as an adapter builds it: a repository per kind, and the change log they all write to. */
export interface StorageUnderTest {
  readonly repositories: Repositories;
  readonly changes: ChangeLog;
}

/** Makes an empty storage, built as the app builds it. */
export type StorageFactory = () => Promise<StorageUnderTest>;
