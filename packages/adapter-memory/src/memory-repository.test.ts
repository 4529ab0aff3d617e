import { describeRecordRepositoryContract } from '@workplan/testing';
import { MemoryRecordRepository } from './memory-repository.js';

describeRecordRepositoryContract('memory', (kind) => Promise.resolve(new MemoryRecordRepository(kind)));
