import { readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { DATABASE_FILES, removeDatabase } from './database-files.js';
import { refuseCorrupt, refuseNotAFile } from './file-admission.js';
import { backup, DatabaseSync } from './node-sqlite.js';
import { makeFolder } from './make-folder.js';
import { explainOpenFailure, explainReadFailure, SqliteOpenError } from './open-errors.js';

// Every page in one step, in one read transaction: between steps, a commit by another
// connection (a storage's write thread, another process) starts the copy over, so under a
// steady write load a copy in steps never ends. In WAL mode the one step holds up no writer.
const ONE_STEP = 2 ** 31 - 1;

/** A database open in this process that copies itself: a `SqliteStorage`. */
export interface BackupSource {
  backup(targetPath: string): Promise<number>;
}

/**
 * Writes a consistent copy of a database to `targetPath` with SQLite's online backup,
 * while the database stays in use; resolves the number of pages copied. From a storage on
 * a file, the file is copied through a connection of the copy's own, so the storage's
 * reads do not wait for it (`:memory:` through the storage's connection). From a path, the
 * file is only read: no migration, nothing written to it; and the copy is then checked as
 * a start checks a file (`quick_check`), so a damaged file is refused as corrupt and leaves
 * no copy that would pass for a backup (a storage checked its file when it opened it, and
 * its backup runs in the serving process, where a check of every page would hold up
 * requests). Throws a SqliteOpenError naming the source or the target, whichever was
 * refused; a target that is the database itself, or a file SQLite keeps beside it, is
 * refused before anything is written.
 */
export async function backupDatabase(source: BackupSource | string, targetPath: string): Promise<number> {
  if (typeof source !== 'string') return source.backup(targetPath);
  const pages = await copyFile(source, targetPath);
  keepIfWhole(resolve(targetPath), resolve(source));
  return pages;
}

/** Removes the copy at `target` if SQLite's check finds it damaged, and says the source is. */
function keepIfWhole(target: string, source: string): void {
  try {
    const copy = new DatabaseSync(target);
    try {
      refuseCorrupt(copy, source);
    } finally {
      copy.close();
    }
  } catch (error) {
    removeDatabase(target);
    throw explainReadFailure(error, source);
  }
}

/** Copies the database file at `path` through a read-only connection of its own, never onto that file or one beside it. */
export async function copyFile(path: string, targetPath: string): Promise<number> {
  // Both before the source is opened: a read-only connection may leave a -shm beside it.
  refuseNotAFile(path);
  refuseNotAFile(targetPath);
  if (isBeside(resolve(path), resolve(targetPath))) throw SqliteOpenError.isSource(resolve(targetPath));
  const db = openSource(resolve(path));
  try {
    return await copyInto(db, targetPath);
  } finally {
    db.close();
  }
}

/**
 * The file to copy, read once before the copy starts: a source that is no database is then
 * refused as such, before the target is touched, and a later failure is the target's.
 */
function openSource(path: string): DatabaseSync {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path, { readOnly: true });
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    return db;
  } catch (error) {
    db?.close();
    throw explainReadFailure(error, path);
  }
}

/** Copies an open connection's main database to `targetPath`, making its folder when missing. */
export async function copyDatabase(db: DatabaseSync, targetPath: string): Promise<number> {
  refuseNotAFile(targetPath);
  return copyInto(db, targetPath);
}

/** The copy itself, to a target already checked. */
async function copyInto(db: DatabaseSync, targetPath: string): Promise<number> {
  const target = resolve(targetPath);
  try {
    makeFolder(dirname(target));
    return await backup(db, target, { rate: ONE_STEP });
  } catch (error) {
    // SQLite opens the target with no busy timeout of its own.
    throw explainOpenFailure(error, target, 0);
  }
}

/** Whether writing `target` would write over the database at `source` or a file SQLite keeps beside it, under any name. */
function isBeside(source: string, target: string): boolean {
  const [real, realTarget] = [realPathOf(source), realPathOf(target)];
  return DATABASE_FILES.some((suffix) => realTarget === `${real}${suffix}` || isSameFile(`${source}${suffix}`, target));
}

/**
 * The path with its links resolved, as far as they exist: a file yet to be made resolves
 * through its folder, and a link to one (which SQLite would follow) through its target.
 */
function realPathOf(path: string, hops = 0): string {
  try {
    return realpathSync(path);
  } catch {
    const target = hops < MAX_LINK_HOPS ? linkTargetOf(path) : undefined;
    if (target !== undefined) return realPathOf(resolve(dirname(path), target), hops + 1);
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

// As the system's own limit on links followed (Linux's is 40).
const MAX_LINK_HOPS = 40;

/** What the link at `path` names, or undefined when `path` is no link. */
function linkTargetOf(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/** Two names of one file (a hard link), when both exist. */
function isSameFile(one: string, other: string): boolean {
  const [a, b] = [statSync(one, { throwIfNoEntry: false }), statSync(other, { throwIfNoEntry: false })];
  return a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;
}
