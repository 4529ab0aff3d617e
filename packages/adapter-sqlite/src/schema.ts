import { costCenter, workSchedule } from '@workplan/core';
import { DatabaseSync } from './node-sqlite.js';
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

/**
 * How a file's tables and indexes differ from those the migrations make up to `version`,
 * or undefined when it holds them all with the same columns (more of its own are let be).
 * What the migrations make is read from a database they build in memory, so this never
 * needs its own list of what each version holds.
 */
export function schemaDifference(db: DatabaseSync, version: number): string | undefined {
  const made = new DatabaseSync(':memory:');
  try {
    for (const step of MIGRATIONS.slice(0, version)) step(made);
    const found = shapesOf(db);
    for (const [object, shape] of shapesOf(made)) {
      if (!found.has(object)) return `it has no ${object}`;
      if (found.get(object) !== shape) return `its ${object} has other columns`;
    }
    return undefined;
  } finally {
    made.close();
  }
}

/** Each table and index (`table work_schedules`), with its columns as SQLite describes them. */
function shapesOf(db: DatabaseSync): Map<string, string> {
  const objects = db.prepare("SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'index') ORDER BY name").all();
  return new Map(
    objects.map(({ type, name }) => {
      // `type` is one of the two words the query lets through, so it may name the pragma.
      const columns = db.prepare(`SELECT * FROM pragma_${String(type)}_xinfo(?)`).all(String(name));
      return [`${String(type)} ${String(name)}`, JSON.stringify(columns)];
    }),
  );
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
