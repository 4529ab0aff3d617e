import { dirname, resolve } from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import { makeFolder } from './make-folder.js';
import { type SqliteStorage } from './sqlite-storage.js';

/**
 * Writes a consistent copy of a database to `targetPath` with SQLite's online backup,
 * while the database stays in use; resolves the number of pages copied. From a storage,
 * its own connection is copied, so its writes never restart the copy. From a path, the
 * file is only read: no migration, nothing written to it.
 */
export async function backupDatabase(source: SqliteStorage | string, targetPath: string): Promise<number> {
  if (typeof source !== 'string') return source.backup(targetPath);
  const db = new DatabaseSync(resolve(source), { readOnly: true });
  try {
    return await copyDatabase(db, targetPath);
  } finally {
    db.close();
  }
}

/** Copies an open connection's main database to `targetPath`, making its folder when missing. */
export async function copyDatabase(db: DatabaseSync, targetPath: string): Promise<number> {
  const target = resolve(targetPath);
  makeFolder(dirname(target));
  return backup(db, target);
}
