import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { SqliteOpenError, type SqliteOpenErrorKind } from './open-errors.js';
import { SqliteStorage } from './sqlite-storage.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

/** Expects open to refuse `path` for `kind` with this message, on one line. */
function expectRefusal(path: string, kind: SqliteOpenErrorKind, message: string | RegExp, busyTimeoutMs = 50): void {
  let thrown: unknown;
  try {
    void SqliteStorage.open({ path, busyTimeoutMs }).close();
  } catch (error) {
    thrown = error;
  }
  expect(SqliteOpenError.is(thrown) && { kind: thrown.kind, path: thrown.path }).toEqual({ kind, path });
  expect(thrown).toBeInstanceOf(Error);
  const text = thrown instanceof Error ? thrown.message : '';
  if (typeof message === 'string') expect(text).toBe(message);
  else expect(text).toMatch(message);
  expect(text).not.toContain('\n');
}

/** A database as another program, or a later workplan, might leave it. */
function writeDatabase(path: string, journalMode: 'wal' | 'delete', userVersion: number): void {
  const db = new DatabaseSync(path);
  db.exec(`PRAGMA journal_mode = ${journalMode}; PRAGMA user_version = ${userVersion}`);
  db.exec("CREATE TABLE later (x TEXT); INSERT INTO later VALUES ('kept')");
  db.close();
}

describe('SqliteStorage.open refuses', () => {
  it.each(['wal', 'delete'] as const)('a file written by a newer schema (%s journal), leaving it byte for byte', (mode) => {
    const path = files.databasePath();
    writeDatabase(path, mode, 3);
    const before = readFileSync(path);
    expectRefusal(path, 'newerSchema', `${path} was written by schema version 3; this workplan knows up to version 2`);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it.each([
    ['a text file', 'horário de trabalho: 12x36\n'.repeat(40)],
    ['a short text file', 'hello\n'],
  ])('%s, leaving it and its folder as they were', (_, text) => {
    const folder = files.folder();
    const path = join(folder, 'notes.txt');
    writeFileSync(path, text);
    expectRefusal(path, 'notADatabase', `${path} is not a SQLite database`);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(readdirSync(folder)).toEqual(['notes.txt']);
  });

  it('a path whose folder would have to be made under a regular file', () => {
    const file = join(files.folder(), 'file.txt');
    writeFileSync(file, 'not a folder');
    const path = join(file, 'sub', 'workplan.db');
    expectRefusal(path, 'unwritable', new RegExp(`^${path} cannot be created or written \\(ENOTDIR`, 'u'));
    expect(readFileSync(file, 'utf8')).toBe('not a folder');
  });

  it('a path that is a folder', () => {
    const path = join(files.folder(), 'folder.db');
    mkdirSync(path);
    expectRefusal(path, 'unwritable', `${path} cannot be created or written (unable to open database file)`);
  });

  // Root may write anywhere a permission bit guards, so these use places no one can write:
  // procfs has no room for new files or folders (and Node's own mkdir -p spins forever there).
  it.runIf(existsSync('/proc/self'))('a file in a folder that takes no new files, or a folder that cannot be made', () => {
    const inProc = '/proc/workplan.db';
    expectRefusal(inProc, 'unwritable', `${inProc} cannot be created or written (unable to open database file)`);
    const underProc = '/proc/workplan/x/workplan.db';
    expectRefusal(underProc, 'unwritable', /^\/proc\/workplan\/x\/workplan\.db cannot be created or written \(ENOENT/u);
    expect(existsSync('/proc/workplan')).toBe(false);
  });

  it('a database another connection holds in an exclusive transaction (WAL: migration cannot start)', async () => {
    const path = files.databasePath();
    await SqliteStorage.open({ path }).close();
    const holder = new DatabaseSync(path);
    files.closeAfter(holder);
    holder.exec('BEGIN EXCLUSIVE');
    const before = readFileSync(path);
    expectRefusal(path, 'locked', `${path} is locked by another connection (still busy after 50 ms)`);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('a rollback-journal database another connection holds in an exclusive transaction (not even readable)', () => {
    const path = files.databasePath();
    writeDatabase(path, 'delete', 0);
    const holder = new DatabaseSync(path);
    files.closeAfter(holder);
    holder.exec('BEGIN EXCLUSIVE');
    holder.exec("INSERT INTO later VALUES ('pending')");
    const before = readFileSync(path);
    expectRefusal(path, 'locked', `${path} is locked by another connection (still busy after 50 ms)`);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
