import { describeRecordRepositoryContract } from '@workplan/testing';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

// In memory for speed, and in a file in WAL mode as the service runs it (writes in a thread).
describeRecordRepositoryContract('sqlite in memory', () => Promise.resolve(files.open({ path: ':memory:' })));

describeRecordRepositoryContract('sqlite file', () => Promise.resolve(files.open({ path: files.databasePath() })));
