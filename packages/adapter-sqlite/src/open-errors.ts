import { isBusy, primaryCodeOf } from './sqlite-errors.js';

/** Why a database file was refused at open. */
export type SqliteOpenErrorKind = 'newerSchema' | 'notADatabase' | 'unwritable' | 'locked';

const brand = Symbol.for('@workplan/adapter-sqlite/SqliteOpenError');

const SQLITE_CANTOPEN = 14;
const SQLITE_READONLY = 8;
const SQLITE_NOTADB = 26;

/** A file `SqliteStorage.open` refused, leaving it as it was; `message` is one line naming the file. */
export class SqliteOpenError extends Error {
  readonly [brand] = true;
  override readonly name = 'SqliteOpenError';

  constructor(
    readonly kind: SqliteOpenErrorKind,
    readonly path: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** True for any SqliteOpenError, even one made by another copy of this package. */
  static is(value: unknown): value is SqliteOpenError {
    return typeof value === 'object' && value !== null && brand in value;
  }

  /** The file's schema is newer than this code knows, so writing to it could break it. */
  static newerSchema(path: string, found: number, known: number): SqliteOpenError {
    const message = `${path} was written by schema version ${found}; this workplan knows up to version ${known}`;
    return new SqliteOpenError('newerSchema', path, message);
  }
}

/**
 * The error `open` throws for a failure: a SqliteOpenError for the refusals it knows,
 * the failure itself for anything else (a bug, a corrupt page) so nothing is hidden.
 */
export function explainOpenFailure(error: unknown, path: string, busyTimeoutMs: number): unknown {
  if (SqliteOpenError.is(error)) return error;
  const refuse = (kind: SqliteOpenErrorKind, message: string) => new SqliteOpenError(kind, path, message, { cause: error });
  if (isBusy(error)) {
    return refuse('locked', `${path} is locked by another connection (still busy after ${busyTimeoutMs} ms)`);
  }
  const primary = primaryCodeOf(error);
  if (primary === SQLITE_NOTADB) return refuse('notADatabase', `${path} is not a SQLite database`);
  if (primary === SQLITE_CANTOPEN || primary === SQLITE_READONLY || isFolderFailure(error)) {
    return refuse('unwritable', `${path} cannot be created or written (${oneLine(error)})`);
  }
  return error;
}

/** A failure of making the file's folder, such as ENOTDIR or EACCES from mkdir. */
function isFolderFailure(error: unknown): boolean {
  return error instanceof Error && 'syscall' in error && error.syscall === 'mkdir';
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/gu, ' ');
}
