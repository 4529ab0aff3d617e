import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeRecordRepositoryContract } from '@workplan/testing';
import { afterAll } from 'vitest';
import { useAppStorage } from './testing/app-storage.js';

const appStorage = useAppStorage();

describeRecordRepositoryContract('the app on memory', appStorage(() => ({ STORAGE: 'memory' })));

const folder = await mkdtemp(join(tmpdir(), 'workplan-storage-contract-'));
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});
let files = 0;
describeRecordRepositoryContract(
  'the app on SQLite',
  appStorage(() => ({ STORAGE: 'sqlite', SQLITE_PATH: join(folder, `workplan-${(files += 1)}.db`) })),
);
