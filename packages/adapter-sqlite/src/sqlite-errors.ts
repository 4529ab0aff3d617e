import { WorkplanError } from '@workplan/core';

// Result codes from https://sqlite.org/rescode.html; node:sqlite puts the extended code
// on the error as `errcode`, and its low byte is the primary code.
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_CONSTRAINT_UNIQUE = 2067;

/** The extended SQLite result code an error from node:sqlite carries, if it is one. */
export function sqliteCodeOf(error: unknown): number | undefined {
  if (!(error instanceof Error) || !('errcode' in error)) return undefined;
  return typeof error.errcode === 'number' ? error.errcode : undefined;
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

/** What a repository throws for a failed call: a lock that did not come free is an outage, the rest stays as it is. */
export function translateSqliteError(error: unknown): unknown {
  return isBusy(error) ? WorkplanError.storageUnavailable(error) : error;
}

/** Runs a call on the database, turning a busy database into `WorkplanError.storageUnavailable`. */
export function guardSqliteCall<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw translateSqliteError(error);
  }
}
