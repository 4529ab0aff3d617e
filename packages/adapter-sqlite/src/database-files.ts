import { existsSync, realpathSync, rmSync } from 'node:fs';
import { type RecordKind } from '@workplan/core';
import { DatabaseSync } from './node-sqlite.js';
import { holdsNothingStored } from './schema.js';

/** The files SQLite keeps beside a database in WAL mode, for as long as a connection is open. */
export const WAL_FILES = ['-wal', '-shm'] as const;

/** What a database at a path is made of, by the ending added to its path: the file itself, its WAL files, a rollback journal. */
export const DATABASE_FILES = ['', ...WAL_FILES, '-journal'] as const;

/**
 * Removes the database at `path` and every file beside it, each if there. SQLite follows a
 * link and keeps its files beside the target, so the files go there and the link stays.
 */
export function removeDatabase(path: string): void {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return;
  }
  for (const ending of DATABASE_FILES) rmSync(`${real}${ending}`, { force: true });
}

/**
 * Removes the database at `path`, as `removeDatabase`, if no other connection has it open
 * and nothing was stored in it yet: for a file this process made and will not use.
 * Checked and removed under an exclusive lock on the file itself, which SQLite refuses
 * while any other connection has it open (each holds a shared lock on it in WAL mode);
 * a file in use or stored into stays. A connection opening it at that moment, before its
 * first read, holds no lock yet: it finds the file gone and fails its open.
 */
export function removeIfNothingStored(path: string, kinds: readonly RecordKind<string>[]): void {
  // A connection would make it again.
  if (!existsSync(path)) return;
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path, { timeout: 0 });
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.exec('BEGIN IMMEDIATE');
    if (holdsNothingStored(db, kinds)) removeDatabase(path);
  } catch {
    // Open elsewhere, or no longer a database of ours: someone else's now.
  } finally {
    if (db?.isTransaction === true) db.exec('ROLLBACK');
    db?.close();
  }
}
