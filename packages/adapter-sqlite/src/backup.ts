import { dirname, resolve } from 'node:path';
import { backup, DatabaseSync } from './node-sqlite.js';
import { makeFolder } from './make-folder.js';
import { explainOpenFailure, explainReadFailure } from './open-errors.js';

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
 * file is only read: no migration, nothing written to it. Throws a SqliteOpenError naming
 * the source or the target, whichever was refused.
 */
export async function backupDatabase(source: BackupSource | string, targetPath: string): Promise<number> {
  return typeof source === 'string' ? copyFile(source, targetPath) : source.backup(targetPath);
}

/** Copies the database file at `path` through a read-only connection of its own. */
export async function copyFile(path: string, targetPath: string): Promise<number> {
  const db = openSource(resolve(path));
  try {
    return await copyDatabase(db, targetPath);
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
  const target = resolve(targetPath);
  try {
    makeFolder(dirname(target));
    return await backup(db, target, { rate: ONE_STEP });
  } catch (error) {
    // SQLite opens the target with no busy timeout of its own.
    throw explainOpenFailure(error, target, 0);
  }
}
