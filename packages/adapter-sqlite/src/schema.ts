import { costCenter, workSchedule, type RecordKind } from '@workplan/core';
import { CREATE_CHANGE_TABLES_SQL } from './change-table.js';
import { CREATE_DELIVERY_TABLE_SQL } from './sqlite-delivery-ledger.js';
import { addFoldFunction } from './folded-text.js';
import { DatabaseSync } from './node-sqlite.js';
import { SqliteOpenError } from './open-errors.js';
import { countRecordsSql, CREATE_RECORD_COUNTS_SQL } from './record-counts.js';
import { createRecordTableSql, foldRecordTableSql, refoldRecordTableSql, tableNameOf } from './record-table.js';
import { CREATE_HIT_TABLE_SQL } from './sqlite-hit-counter.js';

/** One step of the schema: entry N takes a file from version N to version N + 1. */
type Migration = (db: DatabaseSync) => void;

// The migrations make the tables of the seed's two kinds, as their history did; a kind added
// after them has its table made by `addKindTables`, in the shape the migrations end with.
const MIGRATIONS: readonly Migration[] = [
  // Version 1: a table for each kind of record of the seed.
  (db) => {
    db.exec(createRecordTableSql(workSchedule));
    db.exec(createRecordTableSql(costCenter));
  },
  // Version 2: the rate limiter's counts, shared by every process serving the file.
  (db) => {
    db.exec(CREATE_HIT_TABLE_SQL);
  },
  // Version 3: search, sort and count (issue 28): each record's folded text, an index for
  // each order, and a count of each table kept as records come and go.
  (db) => {
    addFoldFunction(db);
    db.exec(CREATE_RECORD_COUNTS_SQL);
    for (const kind of [workSchedule, costCenter]) {
      db.exec(foldRecordTableSql(kind));
      db.exec(countRecordsSql(kind));
    }
  },
  // Version 4: history and the changes feed (issue 29): every write's change, kept in the
  // write's transaction. Records already stored have no change: their history starts with
  // their next write.
  (db) => {
    db.exec(CREATE_CHANGE_TABLES_SQL);
  },
  // Version 5: webhooks (issue 30): each subscription's cursor, lease and failure.
  (db) => {
    db.exec(CREATE_DELIVERY_TABLE_SQL);
  },
  // Version 6: the folded text of core's FOLD_VERSION 2 (full case folding, compatibility
  // forms apart), folded again for every record already stored.
  (db) => {
    addFoldFunction(db);
    for (const kind of [workSchedule, costCenter]) db.exec(refoldRecordTableSql(kind));
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
 * How a file's tables, indexes and triggers differ from those the migrations make up to
 * `version`, or undefined when it holds them all in the same shape (more of its own are let
 * be). What the migrations make is read from a database they build in memory, so this
 * never needs its own list of what each version holds.
 */
export function schemaDifference(db: DatabaseSync, version: number): string | undefined {
  return withMigrated(version, [], (made) => {
    const found = shapesOf(db);
    for (const [object, shape] of shapesOf(made)) {
      if (!found.has(object)) return `it has no ${object}`;
      if (found.get(object) !== shape) return object.startsWith('trigger') ? `its ${object} does otherwise` : `its ${object} has other columns`;
    }
    return undefined;
  });
}

/**
 * Whether nothing was stored in the file yet: it is at this code's schema version (a newer
 * one may keep what this code does not know of) and each of its tables holds only the rows
 * the migrations put there (a record, a change, a delivery or a count of hits is more).
 */
export function holdsNothingStored(db: DatabaseSync, kinds: readonly RecordKind<string>[] = []): boolean {
  if (readSchemaVersion(db) !== SCHEMA_VERSION) return false;
  return withMigrated(SCHEMA_VERSION, kinds, (made) => {
    const tables = made.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").all();
    // A table's name is our own, from the migrations, so it may be written into the query.
    const rowsOf = (on: DatabaseSync, table: string): unknown => on.prepare(`SELECT count(*) AS rows FROM (SELECT 1 FROM "${table}" LIMIT 100)`).get()?.['rows'];
    return tables.every(({ name }) => rowsOf(db, String(name)) === rowsOf(made, String(name)));
  });
}

/** What `use` reads from a database in memory that the migrations up to `version` made, with the tables of `kinds`. */
function withMigrated<T>(version: number, kinds: readonly RecordKind<string>[], use: (made: DatabaseSync) => T): T {
  const made = new DatabaseSync(':memory:');
  try {
    for (const step of MIGRATIONS.slice(0, version)) step(made);
    addKindTables(made, kinds);
    return use(made);
  } finally {
    made.close();
  }
}

/**
 * Each table, index and trigger (`table work_schedules`): a table or an index with its
 * columns as SQLite describes them (an added column changes a table's text, not its
 * columns), a trigger with its text (a file without the triggers that keep the counts
 * would answer wrong counts).
 */
function shapesOf(db: DatabaseSync): Map<string, string> {
  const objects = db.prepare("SELECT type, name, sql FROM sqlite_schema WHERE type IN ('table', 'index', 'trigger') ORDER BY name").all();
  return new Map(
    objects.map(({ type, name, sql }) => {
      if (type === 'trigger') return [`trigger ${String(name)}`, String(sql)];
      // `type` is one of the two words left, so it may name the pragma.
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
export function migrate(db: DatabaseSync, path: string, kinds: readonly RecordKind<string>[] = []): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    const current = readSchemaVersion(db);
    if (current > SCHEMA_VERSION) throw SqliteOpenError.newerSchema(path, current, SCHEMA_VERSION);
    for (const step of MIGRATIONS.slice(current)) step(db);
    // A PRAGMA takes no bound parameters; the version is our own integer.
    if (current < SCHEMA_VERSION) db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    addKindTables(db, kinds);
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Makes the table of each of `kinds` the file has none for, as the migrations leave the
 * seed's tables (made, folded and counted), so a kind of record added later needs no
 * migration of its own. A table already there is let be: its kind was served before.
 */
function addKindTables(db: DatabaseSync, kinds: readonly RecordKind<string>[]): void {
  const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?");
  const missing = kinds.filter((kind) => exists.get(tableNameOf(kind)) === undefined);
  if (missing.length === 0) return;
  addFoldFunction(db);
  for (const kind of missing) db.exec(createRecordTableSql(kind) + foldRecordTableSql(kind) + countRecordsSql(kind));
}
