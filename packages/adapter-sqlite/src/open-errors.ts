import { isBusy, primaryCodeOf } from './sqlite-errors.js';

/** Why a database file was refused at open, or by a backup. */
export type SqliteOpenErrorKind = 'newerSchema' | 'notADatabase' | 'foreign' | 'corrupt' | 'unwritable' | 'unreadable' | 'locked' | 'isSource' | 'notAFile';

const brand = Symbol.for('@workplan/adapter-sqlite/SqliteOpenError');

const SQLITE_CANTOPEN = 14;
const SQLITE_READONLY = 8;
const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;

/** A file `SqliteStorage.open` or a backup refused, leaving it as it was; `message` is one line naming the file. */
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

  /** A SQLite database that holds tables workplan did not make, or not those its schema version says. */
  static foreign(path: string, reason: string): SqliteOpenError {
    return new SqliteOpenError('foreign', path, `${path} is not a workplan database: ${reason}`);
  }

  /** SQLite's own check found the file damaged (`finding` is its first line). */
  static corrupt(path: string, finding: string, options?: ErrorOptions): SqliteOpenError {
    return new SqliteOpenError('corrupt', path, `${path} is corrupt (${oneLine(finding)}); restore it from a backup`, options);
  }

  /** A backup's target that is the database being copied, or its journal, write-ahead log or shared memory. */
  static isSource(target: string): SqliteOpenError {
    const message = `${target} is the database being copied or a file SQLite keeps beside it: name another file for the copy`;
    return new SqliteOpenError('isSource', target, message);
  }

  /** A path that names no file a database can be: a folder (`what`), a device, a pipe or a socket. */
  static notAFile(path: string, what: string): SqliteOpenError {
    return new SqliteOpenError('notAFile', path, `${path} is ${what}: give the path of a database file`);
  }

  /** This process may not write the file or its folder (`denied` says which, with the reason). */
  static readOnly(path: string, denied: string): SqliteOpenError {
    return new SqliteOpenError('unwritable', path, `${path} cannot be written: this process may not write ${denied}`);
  }
}

/**
 * The error `open` throws for a failure: a SqliteOpenError for the refusals it knows,
 * the failure itself for anything else (a bug, say) so nothing is hidden.
 */
export function explainOpenFailure(error: unknown, path: string, busyTimeoutMs: number): unknown {
  if (SqliteOpenError.is(error)) return error;
  const refuse = (kind: SqliteOpenErrorKind, message: string) => new SqliteOpenError(kind, path, message, { cause: error });
  if (isBusy(error)) {
    return refuse('locked', `${path} is locked by another connection (still busy after ${busyTimeoutMs} ms)`);
  }
  const primary = primaryCodeOf(error);
  if (primary === SQLITE_NOTADB) return refuse('notADatabase', `${path} is not a SQLite database`);
  if (primary === SQLITE_CORRUPT) return SqliteOpenError.corrupt(path, messageOf(error), { cause: error });
  if (primary === SQLITE_CANTOPEN || primary === SQLITE_READONLY || isFolderFailure(error)) {
    return refuse('unwritable', `${path} cannot be created or written (${oneLine(messageOf(error))})`);
  }
  return error;
}

/** The error for a file that was only to be read, a backup's source: one SQLite cannot open is unreadable, the rest as at open. */
export function explainReadFailure(error: unknown, path: string): unknown {
  if (primaryCodeOf(error) !== SQLITE_CANTOPEN) return explainOpenFailure(error, path, 0);
  return new SqliteOpenError('unreadable', path, `${path} cannot be read (${oneLine(messageOf(error))})`, { cause: error });
}

/** A failure of making the file's folder, such as ENOTDIR or EACCES from mkdir. */
function isFolderFailure(error: unknown): boolean {
  return error instanceof Error && 'syscall' in error && error.syscall === 'mkdir';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function oneLine(text: string): string {
  return text.replace(/\s+/gu, ' ');
}
