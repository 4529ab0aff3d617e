import { costCenter, workSchedule } from '@workplan/core';
import { type DatabaseSync } from 'node:sqlite';
import { SqliteOpenError } from './open-errors.js';
import { createRecordTableSql } from './record-table.js';
import { CREATE_HIT_TABLE_SQL } from './sqlite-hit-counter.js';

/** One step of the schema: entry N takes a file from version N to version N + 1. */
type Migration = (db: DatabaseSync) => void;

const MIGRATIONS: readonly Migration[] = [
  // Version 1: a table for each kind of record.
  (db) => {
    db.exec(createRecordTableSql(workSchedule));
    db.exec(createRecordTableSql(costCenter));
  },
  // Version 2: the rate limiter's counts, shared by every process serving the file.
  (db) => {
    db.exec(CREATE_HIT_TABLE_SQL);
  },
];

/** The schema version this code writes, kept in the file's `PRAGMA user_version`. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** The version a file's schema is at; 0 for a new, empty file. */
export function readSchemaVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get();
  const version = row?.['user_version'];
  if (typeof version !== 'number') throw new Error('PRAGMA user_version answered no number');
  return version;
}

/** Refuses a file written by a newer schema than this code knows; it only reads, so the file stays as it was. */
export function refuseNewerSchema(db: DatabaseSync, path: string): void {
  const found = readSchemaVersion(db);
  if (found > SCHEMA_VERSION) throw SqliteOpenError.newerSchema(path, found, SCHEMA_VERSION);
}

/**
 * Brings the file to SCHEMA_VERSION in one transaction. BEGIN IMMEDIATE takes the write
 * lock before the version is read, so two processes opening one new file cannot both
 * migrate it; a failed step rolls every step back.
 */
export function migrate(db: DatabaseSync, path: string): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    const current = readSchemaVersion(db);
    if (current > SCHEMA_VERSION) throw SqliteOpenError.newerSchema(path, current, SCHEMA_VERSION);
    for (const step of MIGRATIONS.slice(current)) step(db);
    // A PRAGMA takes no bound parameters; the version is our own integer.
    if (current < SCHEMA_VERSION) db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
