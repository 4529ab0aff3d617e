import { statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ThreadWriter } from './sqlite-writer.js';
import { holdThread } from './test-support/hold-thread.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();
const MB = 1024 * 1024;

/** A file with one table in WAL mode, its write thread (WAL limit of 1 MB), and a reader connection. */
function fileWithThreadAndReader(): { path: string; writer: ThreadWriter; reader: DatabaseSync } {
  const path = files.databasePath();
  const setup = new DatabaseSync(path);
  setup.exec('PRAGMA journal_mode = WAL; CREATE TABLE things (name TEXT PRIMARY KEY, body TEXT NOT NULL)');
  setup.close();
  const writer = new ThreadWriter({ path, synchronous: 'NORMAL', busyTimeoutMs: 2000, walLimitBytes: MB });
  files.closeAfter(writer);
  const reader = new DatabaseSync(path);
  files.closeAfter(reader);
  return { path, writer, reader };
}


const walBytes = (path: string): number => statSync(`${path}-wal`).size;
const body = 'x'.repeat(8000); // two pages and more a row

describe('the write thread', () => {
  it('keeps the WAL near its limit while a reader is nearly always inside a read transaction', async () => {
    const { path, writer, reader } = fileWithThreadAndReader();
    const count = reader.prepare('SELECT count(*) FROM things');
    const writes: Promise<unknown>[] = [];
    // As a connection sharing each turn's reads does under load: a snapshot taken at the
    // turn's first read, held through the turn's work, let go at its end.
    for (let n = 0; n < 400; n += 1) {
      // ...save while the thread asks it not to.
      const sharing = !writer.isEmptyingWal();
      if (sharing) reader.exec('BEGIN');
      count.get();
      writes.push(writer.run('INSERT INTO things (name, body) VALUES (?, ?)', [`thing ${n}`, body]));
      holdThread(1);
      await nextTurn();
      if (sharing) reader.exec('COMMIT');
    }
    await Promise.all(writes);
    // Without the limit the WAL holds nearly all 400 rows, some 5 MB: SQLite's own
    // checkpoints never find a moment with no reader in it.
    expect(walBytes(path)).toBeLessThan(2 * MB);
    expect(reader.prepare('SELECT count(*) AS n FROM things').get()).toEqual({ n: 400 });
  });

  it('writes on at full speed while a reader stays in the WAL, trying to empty it again only after a while', async () => {
    const { path, writer, reader } = fileWithThreadAndReader();
    for (let n = 0; n < 100; n += 1) await writer.run('INSERT INTO things (name, body) VALUES (?, ?)', [`before ${n}`, body]);
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM things').get();
    const started = performance.now();
    for (let n = 0; n < 100; n += 1) await writer.run('INSERT INTO things (name, body) VALUES (?, ?)', [`during ${n}`, body]);
    expect(walBytes(path)).toBeGreaterThan(MB); // it could not be emptied
    // One wait of 100 ms for the reader, then none for a second: not one a write.
    expect(performance.now() - started).toBeLessThan(1500);
    // And the reads of the storage's thread were asked to hold off only while it tried.
    expect(writer.isEmptyingWal()).toBe(false);
    reader.exec('COMMIT');
  });
});
