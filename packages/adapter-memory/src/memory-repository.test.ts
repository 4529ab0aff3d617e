import { describeRecordRepositoryContract } from '@workplan/testing';
import { createMemoryStorage } from './memory-storage.js';

describeRecordRepositoryContract('memory', () => Promise.resolve(createMemoryStorage()));
