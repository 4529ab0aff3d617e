/** @workplan/adapter-sqlite: repositories kept in one SQLite file through node:sqlite, a table per kind of record and a log of their changes. */
export { backupDatabase, type BackupSource } from './backup.js';
export { FAULT_REPORT_INTERVAL_MS, type StorageReport } from './file-faults.js';
export { SqliteOpenError, type SqliteOpenErrorKind } from './open-errors.js';
export { SCHEMA_VERSION } from './schema.js';
export { CHANGE_POLL_MS, SqliteChangeLog } from './sqlite-change-log.js';
export { SqliteDeliveryLedger } from './sqlite-delivery-ledger.js';
export { SqliteHitCounter } from './sqlite-hit-counter.js';
export { SqliteRecordRepository } from './sqlite-repository.js';
export {
  DEFAULT_BUSY_TIMEOUT_MS,
  SqliteStorage,
  type SqliteSettings,
  type SqliteStorageOptions,
} from './sqlite-storage.js';
