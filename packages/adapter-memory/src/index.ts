/** @workplan/adapter-memory: repositories kept in memory, the embedded default storage. */
export { MemoryRecordRepository } from './memory-repository.js';
