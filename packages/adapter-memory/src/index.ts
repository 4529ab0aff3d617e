/** @workplan/adapter-memory: every storage port in this process's memory, the reference the other storages are checked against. */
export { MemoryChangeLog } from './memory-change-log.js';
export { MemoryDeliveryLedger } from './memory-delivery-ledger.js';
export { MemoryRecordRepository, type MemoryRepositoryOptions } from './memory-repository.js';
export { createMemoryStorage, type MemoryStorage } from './memory-storage.js';
