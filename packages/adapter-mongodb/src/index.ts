/** @workplan/adapter-mongodb: repositories kept in MongoDB, one collection per kind of record. */
export { type ProtocolStep } from './change-protocol.js';
export { MongoChangeLog } from './mongo-change-log.js';
export { MongoDeliveryLedger, type DeliveryStateDocument, type MongoDeliveryLedgerOptions } from './mongo-delivery-ledger.js';
export { MongoHitCounter, type HitDocument } from './mongo-hit-counter.js';
export { MongoRecordRepository, type MongoRecordRepositoryOptions } from './mongo-repository.js';
export { connectMongo, MongoStorage, type MongoStorageOptions, type MongoStorageSettings } from './mongo-storage.js';
export { type RecordDocument } from './record-document.js';
