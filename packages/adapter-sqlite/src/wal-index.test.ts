import { readdirSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTempFiles } from './test-support/temp-files.js';
import { WalIndex } from './wal-index.js';

const files = useTempFiles();

/** Indexes opened by a test: closed after its connections, as closing drops the process's locks on the file. */
const indexes: WalIndex[] = [];
beforeEach(() => {
  // Registered before any connection of the test, so closed after all of them.
  files.closeAfter({
    close: () => {
      for (const index of indexes.splice(0)) index.close();
    },
  });
});

/** A database in WAL mode with one table, its connection closed after the test. */
function walDatabase(): { path: string; db: DatabaseSync } {
  const path = files.databasePath();
  const db = new DatabaseSync(path);
  files.closeAfter(db);
  db.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (n INTEGER) STRICT');
  return { path, db };
}

function openIndex(path: string): WalIndex {
  const index = WalIndex.open(path);
  indexes.push(index);
  return index;
}

/** A `-shm` file holding the header copies given, for a database that is never opened. */
function fakeIndex(first: Buffer, second: Buffer = first): WalIndex {
  const path = join(files.folder(), 'fake.db');
  writeFileSync(path, '');
  writeFileSync(`${path}-shm`, Buffer.concat([first, second]));
  return openIndex(path);
}

function header(version = 3_007_000, isInit = 1, frames = 0): Buffer {
  const bytes = Buffer.alloc(48);
  bytes.writeUInt32LE(version, 0);
  bytes[12] = isInit;
  bytes.writeUInt32LE(frames, 16);
  return bytes;
}

describe('WalIndex', () => {
  it('keeps its stamp while nothing is committed, and moves it with every commit, whichever connection made it', () => {
    const { path, db } = walDatabase();
    const index = openIndex(path);
    const other = new DatabaseSync(path);
    files.closeAfter(other);
    const stamps = [index.stamp()];
    expect(index.stamp()).toBe(stamps[0]);
    db.prepare('SELECT count(*) FROM t').get();
    expect(index.stamp()).toBe(stamps[0]); // a read commits nothing
    for (let i = 0; i < 20; i += 1) {
      (i % 2 === 0 ? db : other).prepare('INSERT INTO t VALUES (?)').run(i);
      stamps.push(index.stamp());
    }
    expect(stamps.every((stamp) => typeof stamp === 'number')).toBe(true);
    expect(new Set(stamps).size).toBe(stamps.length);
  });

  it('moves its stamp when a checkpoint starts the log over, even to as many frames as before', () => {
    const { path, db } = walDatabase();
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const index = openIndex(path);
    db.prepare('INSERT INTO t VALUES (1)').run();
    const frames = () => Object.values(db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get() ?? {})[1];
    const before = index.stamp();
    const framesBefore = frames();
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.prepare('UPDATE t SET n = 2').run();
    expect(frames()).toBe(framesBefore); // the same count of frames: mxFrame alone would not tell
    expect(index.stamp()).not.toBe(before);
  });

  it('gives no stamp while the two copies of the header differ: a commit was writing them', () => {
    expect(fakeIndex(header(), header(3_007_000, 1, 7)).stamp()).toBeUndefined();
    expect(fakeIndex(header(3_007_000, 1, 7)).stamp()).toBeTypeOf('number');
  });

  it('gives no stamp for a header in another format, or not yet written', () => {
    expect(fakeIndex(header(3_008_000)).stamp()).toBeUndefined();
    expect(fakeIndex(header(3_007_000, 0)).stamp()).toBeUndefined();
    expect(fakeIndex(Buffer.alloc(0), Buffer.alloc(0)).stamp()).toBeUndefined();
  });

  it('gives no stamp once closed, and closing twice is harmless', () => {
    const index = fakeIndex(header());
    expect(index.stamp()).toBeTypeOf('number');
    index.close();
    index.close();
    expect(index.stamp()).toBeUndefined();
  });

  it('opens the file anew when the one it had open was replaced', () => {
    const path = join(files.folder(), 'fake.db');
    writeFileSync(path, '');
    writeFileSync(`${path}-shm`, Buffer.concat([header(), header()]));
    const first = openIndex(path);
    // As SQLite's last connection removing the file, and a new first one making it, would.
    rmSync(`${path}-shm`);
    writeFileSync(`${path}-shm`, Buffer.concat([header(0), header(0)]));
    const second = openIndex(path);
    expect(first.stamp()).toBeTypeOf('number'); // still the removed file
    expect(second.stamp()).toBeUndefined(); // the new one, not in the known format
  });

  // Closing a descriptor of a file drops every POSIX lock the process holds on it,
  // SQLite's among them; so the thread keeps one, until the last index over it closes.
  it.skipIf(process.platform !== 'linux')('opens the file once, and closes it with the last index, after the connections (Linux: counts /proc/self/fd)', () => {
    const path = files.databasePath();
    const db = new DatabaseSync(path);
    try {
      db.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (n INTEGER) STRICT');
      const shm = realpathSync(`${path}-shm`);
      const descriptors = () =>
        readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`).startsWith(shm); // "(deleted)" once SQLite removed it
          } catch {
            return false; // the descriptor readdir itself used
          }
        }).length;
      const sqliteOwn = descriptors();
      const first = WalIndex.open(path);
      const second = WalIndex.open(path);
      expect(descriptors()).toBe(sqliteOwn + 1);
      first.close();
      const before = second.stamp();
      db.prepare('INSERT INTO t VALUES (1)').run();
      expect(second.stamp()).not.toBe(before);
      db.close();
      expect(descriptors()).toBe(1);
      second.close();
      expect(descriptors()).toBe(0);
    } finally {
      if (db.isOpen) db.close();
    }
  });
});
