import { ApiKeys } from '@workplan/adapter-express';
import { type Repositories } from '@workplan/core';
import { type StorageFactory, type StorageUnderTest } from '@workplan/testing';
import { afterEach } from 'vitest';
import { parseConfig } from '../config.js';
import { createContainer } from '../container.js';
import { ids, type StorageLifecycle } from '../identifiers.js';

// Test-only (left out of the build): the repositories and change log of the storage the app
// builds, through its own container from its own configuration, so a suite run over them
// proves what ships.

/** How long a storage may take to become ready (MongoDB makes its indexes first). */
const READY_WITHIN_MS = 10_000;

/**
 * Call at the top of a test file: makes storage factories over the app's own storage,
 * each call a new storage from `env()` (which names a fresh file or database), opened as
 * `startService` opens it and closed after the test.
 */
export function useAppStorage(): (env: () => Record<string, string>) => StorageFactory {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });
  return (env) =>
    async (): Promise<StorageUnderTest> => {
      const config = parseConfig({ API_KEYS: 'storage-test-key-0123456789', LOG_LEVEL: 'silent', ...env() });
      const container = await createContainer(config, new ApiKeys(config.apiKeys));
      const storage = container.get(ids.storage);
      // As the service closes: the storage, then the log it may have written to.
      closers.push(async () => {
        await storage.close();
        await container.get(ids.logOutput)?.close();
      });
      storage.open();
      await untilReady(storage);
      // The container was made without kinds of its own: its repositories are the seed's.
      return { repositories: container.get(ids.repositories) as Repositories, changes: container.get(ids.changes) };
    };
}

async function untilReady(storage: StorageLifecycle): Promise<void> {
  const deadline = Date.now() + READY_WITHIN_MS;
  while (!(await storage.isReady())) {
    if (Date.now() > deadline) throw new Error(`the app's storage was not ready within ${READY_WITHIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
