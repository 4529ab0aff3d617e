import { WorkplanError } from '@workplan/core';

// Result codes from https://sqlite.org/rescode.html; node:sqlite puts the extended code
// on the error as `errcode`, and its low byte is the primary code.
export const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;
const SQLITE_NOTADB = 26;
/** SQLite's own code for a file that is no longer at its path; the write thread answers it too (`FileIdentity`). */
export const SQLITE_READONLY_DBMOVED = 1032;
const SQLITE_CONSTRAINT_UNIQUE = 2067;

/** The extended SQLite result code an error from node:sqlite carries, if it is one. */
export function sqliteCodeOf(error: unknown): number | undefined {
  if (!(error instanceof Error) || !('errcode' in error)) return undefined;
  return typeof error.errcode === 'number' ? error.errcode : undefined;
}

/** An error shaped as node:sqlite's, for a failure found beside SQLite that is handled as SQLite's `errcode`. */
export function sqliteFailure(message: string, errcode: number): Error {
  return Object.assign(new Error(message), { code: 'ERR_SQLITE_ERROR', errcode });
}

/** The primary result code (`SQLITE_BUSY_SNAPSHOT` is `SQLITE_BUSY`, and so on). */
export function primaryCodeOf(error: unknown): number | undefined {
  const code = sqliteCodeOf(error);
  return code === undefined ? undefined : code & 0xff;
}

/**
 * A UNIQUE constraint failed. In a record table that is always `key`: `id` is the
 * primary key, whose clash has a code of its own (SQLITE_CONSTRAINT_PRIMARYKEY).
 */
export function isUniqueViolation(error: unknown): boolean {
  return sqliteCodeOf(error) === SQLITE_CONSTRAINT_UNIQUE;
}

/** Another connection held a lock for longer than the busy timeout. */
export function isBusy(error: unknown): boolean {
  const primary = primaryCodeOf(error);
  return primary === SQLITE_BUSY || primary === SQLITE_LOCKED;
}

// A file that cannot serve, whatever the statement: no room left, a failed read or write,
// a damaged file, a file that cannot be written or reopened, or one gone from its path.
const FILE_FAULTS = new Set([SQLITE_READONLY, SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_NOTADB]);

/** The file failed the statement (full, failed I/O, damaged, unwritable, gone): an outage until someone sees to the file. */
export function isFileFault(error: unknown): boolean {
  const primary = primaryCodeOf(error);
  return primary !== undefined && FILE_FAULTS.has(primary);
}

/** A damaged file, or not a database: unlike a full disk, it will not mend by itself. */
export function isFileDamage(error: unknown): boolean {
  const primary = primaryCodeOf(error);
  return primary === SQLITE_CORRUPT || primary === SQLITE_NOTADB;
}

/** What a repository throws for a failed call: a lock that did not come free or a file that cannot serve is an outage, the rest stays as it is. */
export function translateSqliteError(error: unknown): unknown {
  return isBusy(error) || isFileFault(error) ? WorkplanError.storageUnavailable(error) : error;
}

/** Runs a call on the database, turning a busy database or a failing file into `WorkplanError.storageUnavailable`. */
export function guardSqliteCall<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw translateSqliteError(error);
  }
}
