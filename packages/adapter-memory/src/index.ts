/** @workplan/adapter-memory: repositories kept in memory, the embedded default storage. */
export { MemoryRecordRepository, type MemoryRepositoryOptions } from './memory-repository.js';
export { ScanLane, type ScanLaneOptions } from './scan-lane.js';
