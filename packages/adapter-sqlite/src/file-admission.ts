import { accessSync, constants, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { SqliteOpenError } from './open-errors.js';
import { readSchemaVersion, schemaDifference, SCHEMA_VERSION } from './schema.js';

// What a file must be before the storage writes to it (WAL mode rewrites a file's header,
// a migration adds tables): one this process may write, and either new or workplan's own
// and sound. Each check only reads, so a refused file stays byte for byte as it was.

/**
 * Refuses a path that names no file a database can be, before anything is made: one
 * written as a folder (ending in a separator, `.` or `..`, which resolving would drop,
 * making a file of that name), a folder, and a device, a pipe or a socket, which SQLite answers only with
 * an I/O error naming nothing.
 */
export function refuseNotAFile(given: string): void {
  const path = resolve(given);
  if (writtenAsFolder(given)) throw SqliteOpenError.notAFile(join(path, sep), 'written as a folder');
  const stats = statsOf(path);
  if (stats?.isDirectory() === true) throw SqliteOpenError.notAFile(path, 'a folder');
  if (stats !== undefined && !stats.isFile()) throw SqliteOpenError.notAFile(path, 'a device, a pipe or a socket');
}

/**
 * Whether the path's last step names a folder: none (it ends in a separator), `.` or `..`.
 * `/` separates steps everywhere; `\` only where it is the platform's separator (on Linux
 * it is a letter of a file name).
 */
function writtenAsFolder(given: string): boolean {
  const last = given.split(sep === '/' ? '/' : /[\\/]/u).at(-1);
  return last === '' || last === '.' || last === '..';
}

/** The file's stats, or undefined where it cannot be looked at (missing, under a file): the checks after this one say why. */
function statsOf(path: string): ReturnType<typeof statSync> {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * Refuses a file, or the folder its -wal and -shm files are made in, that this process may
 * not write, as access(2) answers (permission bits, ACLs, a read-only mount). SQLite itself
 * opens such a file read-only without a word, and every write would then fail.
 */
export function refuseReadOnly(path: string): void {
  const denied: string[] = [];
  const file = writeDenial(path);
  if (file !== undefined) denied.push(`the file (${file})`);
  const folder = writeDenial(dirname(path));
  if (folder !== undefined) denied.push(`its folder (${folder})`);
  if (denied.length > 0) throw SqliteOpenError.readOnly(path, denied.join(' nor '));
}

/** Why this process may not write `path` (`EACCES`, `EROFS`), or undefined if it may or the file is not there yet. */
function writeDenial(path: string): string | undefined {
  try {
    accessSync(path, constants.W_OK);
    return undefined;
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'unknown';
    return code === 'ENOENT' ? undefined : code;
  }
}

/**
 * Lets the storage use a file that is new (no tables at all: missing, empty, or just made)
 * or workplan's at a schema version this code knows, holding what that version made and
 * passing SQLite's quick check; refuses any other, naming it.
 */
export function admitFile(db: DatabaseSync, path: string): void {
  // One snapshot for every read: another process may migrate a new file between two of them
  // (its tables seen without the version set with them would read as a foreign file).
  db.exec('BEGIN');
  try {
    admitSnapshot(db, path);
  } finally {
    db.exec('COMMIT');
  }
}

function admitSnapshot(db: DatabaseSync, path: string): void {
  const version = readSchemaVersion(db);
  if (version > SCHEMA_VERSION) throw SqliteOpenError.newerSchema(path, version, SCHEMA_VERSION);
  if (version === 0) {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").all();
    if (tables.length === 0) return;
    // Workplan sets its version in the transaction that makes its tables.
    throw SqliteOpenError.foreign(path, `it holds ${listed(tables.map(({ name }) => String(name)))} and no workplan schema version`);
  }
  const difference = schemaDifference(db, version);
  if (difference !== undefined) throw SqliteOpenError.foreign(path, `it says schema version ${version}, but ${difference}`);
  refuseCorrupt(db, path);
}

/** A few names, so that a file of many tables still makes one short line. */
function listed(names: readonly string[], most = 5): string {
  const more = names.length - most;
  return more > 0 ? `${names.slice(0, most).join(', ')} and ${String(more)} more` : names.join(', ');
}

/**
 * quick_check reads every page and checks each b-tree and record, though not that each
 * index matches its table (integrity_check does, at several times the cost); its time grows
 * with the file, as docs/storage.md says. Stopped at the first fault found.
 */
export function refuseCorrupt(db: DatabaseSync, path: string): void {
  const verdict = db.prepare('PRAGMA quick_check(1)').get()?.['quick_check'];
  if (verdict !== 'ok') throw SqliteOpenError.corrupt(path, `quick_check: ${String(verdict)}`);
}
