/** @workplan/adapter-memory: repositories kept in memory, the embedded default storage. */
export { MemoryChangeLog } from './memory-change-log.js';
export { MemoryDeliveryLedger } from './memory-delivery-ledger.js';
export { MemoryRecordRepository, type MemoryRepositoryOptions } from './memory-repository.js';
export { createMemoryStorage, type MemoryStorage } from './memory-storage.js';
export { ScanLane, type ScanLaneOptions } from './scan-lane.js';
