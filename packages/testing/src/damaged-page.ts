import { closeSync, openSync, writeSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';

/** Overwrites the first page of `table`'s b-tree in a SQLite file with bytes no page holds, as a failing disk might. */
export function damageTablePage(path: string, table: string): void {
  // Not read-only: such a connection would leave -wal and -shm files behind.
  const db = new DatabaseSync(path);
  const { rootpage } = db.prepare('SELECT rootpage FROM sqlite_schema WHERE name = ?').get(table) as { rootpage: number };
  const { page_size: pageSize } = db.prepare('PRAGMA page_size').get() as { page_size: number };
  db.close();
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (rootpage - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}
