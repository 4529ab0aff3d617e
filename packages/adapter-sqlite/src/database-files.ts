import { realpathSync, rmSync } from 'node:fs';

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
