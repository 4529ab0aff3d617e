import { describeRecordRepositoryContract } from '@workplan/testing';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

// In memory for speed, and in a file in WAL mode as the service runs it.
describeRecordRepositoryContract('sqlite in memory', (kind) =>
  Promise.resolve(files.open({ path: ':memory:' }).repositoryFor(kind)),
);

describeRecordRepositoryContract('sqlite file', (kind) =>
  Promise.resolve(files.open({ path: files.databasePath() }).repositoryFor(kind)),
);
