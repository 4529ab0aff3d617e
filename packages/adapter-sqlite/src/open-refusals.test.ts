import { creationOf, uniquenessKey, workSchedule } from '@workplan/core';
import { buildRecord, damageTablePage } from '@workplan/testing';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { SqliteOpenError, type SqliteOpenErrorKind } from './open-errors.js';
import { SCHEMA_VERSION } from './schema.js';
import { SqliteStorage } from './sqlite-storage.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

/** Expects open to refuse `path` for `kind` with this message, on one line, naming `named`. */
function expectRefusal(path: string, kind: SqliteOpenErrorKind, message: string | RegExp, busyTimeoutMs = 50, named = path): void {
  let thrown: unknown;
  try {
    void SqliteStorage.open({ path, busyTimeoutMs }).close();
  } catch (error) {
    thrown = error;
  }
  expect(SqliteOpenError.is(thrown) && { kind: thrown.kind, path: thrown.path }).toEqual({ kind, path: named });
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
    writeDatabase(path, mode, SCHEMA_VERSION + 1);
    const before = readFileSync(path);
    expectRefusal(path, 'newerSchema', `${path} was written by schema version ${SCHEMA_VERSION + 1}; this workplan knows up to version ${SCHEMA_VERSION}`);
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

  it('a path that is a folder, or is written as one (ending in /), making nothing and changing nothing', () => {
    const path = join(files.folder(), 'folder.db');
    mkdirSync(path);
    expectRefusal(path, 'notAFile', `${path} is a folder: give the path of a database file`);
    const written = join(files.folder(), 'new-folder');
    expectRefusal(`${written}/`, 'notAFile', `${written}/ is written as a folder: give the path of a database file`);
    expect(existsSync(written)).toBe(false);
    // A file named as a folder is no folder: the path is what is wrong.
    const file = join(files.folder(), 'rel.db');
    writeFileSync(file, 'kept');
    expectRefusal(`${file}/`, 'notAFile', `${file}/ is written as a folder: give the path of a database file`);
    // Ending in . or .., as resolving would drop too.
    expectRefusal(`${file}/.`, 'notAFile', `${file}/ is written as a folder: give the path of a database file`, 50, `${file}/`);
    expectRefusal(`${written}/x/..`, 'notAFile', `${written}/ is written as a folder: give the path of a database file`, 50, `${written}/`);
    expect(existsSync(written)).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('kept');
  });

  it.runIf(sep === '/')('a path ending in a backslash, which names a file where / is the only separator', async () => {
    const path = join(files.folder(), 'odd.db\\');
    await SqliteStorage.open({ path }).close();
    expect(readdirSync(dirname(path))).toContain('odd.db\\');
  });

  it('a path that is a device or a pipe, which SQLite would only answer with an I/O error', () => {
    expectRefusal('/dev/null', 'notAFile', '/dev/null is a device, a pipe or a socket: give the path of a database file');
    const pipe = join(files.folder(), 'pipe.db');
    execFileSync('mkfifo', [pipe]);
    expectRefusal(pipe, 'notAFile', `${pipe} is a device, a pipe or a socket: give the path of a database file`);
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

/** A SQLite file `sql` makes, and the one file of its folder. */
function otherDatabase(sql: string): string {
  const path = files.databasePath();
  const db = new DatabaseSync(path);
  db.exec(sql);
  db.close();
  return path;
}

/** Expects a refusal that leaves the file byte for byte as it was, and no file beside it (no -wal, no -shm). */
function expectUntouchedRefusal(path: string, kind: SqliteOpenErrorKind, message: string | RegExp): void {
  const before = readFileSync(path);
  expectRefusal(path, kind, message);
  expect(readFileSync(path).equals(before)).toBe(true);
  expect(readdirSync(dirname(path))).toEqual([basename(path)]);
}

describe('SqliteStorage.open, before it writes anything, refuses (SQLite fault 5)', () => {
  it.each(['wal', 'delete'] as const)("another application's database (%s journal)", (mode) => {
    const path = otherDatabase(`PRAGMA journal_mode = ${mode}; CREATE TABLE payroll (employee TEXT, cents INTEGER); INSERT INTO payroll VALUES ('Ana', 512000)`);
    expectUntouchedRefusal(path, 'foreign', `${path} is not a workplan database: it holds payroll and no workplan schema version`);
  });

  it('a database whose work_schedules table has another shape', () => {
    const path = otherDatabase("CREATE TABLE work_schedules (name TEXT, hours INTEGER); INSERT INTO work_schedules VALUES ('12x36', 12)");
    expectUntouchedRefusal(path, 'foreign', `${path} is not a workplan database: it holds work_schedules and no workplan schema version`);
  });

  it("a database at workplan's schema version whose tables are not workplan's, naming what differs", () => {
    const payroll = otherDatabase('PRAGMA user_version = 2; CREATE TABLE payroll (employee TEXT)');
    expectUntouchedRefusal(payroll, 'foreign', `${payroll} is not a workplan database: it says schema version 2, but it has no table cost_centers`);
    const reshaped = otherDatabase('PRAGMA user_version = 1; CREATE TABLE cost_centers (id TEXT); CREATE TABLE work_schedules (id TEXT)');
    expectUntouchedRefusal(reshaped, 'foreign', `${reshaped} is not a workplan database: it says schema version 1, but its table cost_centers has other columns`);
  });

  it('a workplan database without the triggers that keep its counts, or with one that counts otherwise, which would answer wrong counts', async () => {
    const dropped = files.databasePath();
    await SqliteStorage.open({ path: dropped }).close();
    const withoutTrigger = new DatabaseSync(dropped);
    withoutTrigger.exec('DROP TRIGGER work_schedules_counted_out');
    withoutTrigger.close();
    expectUntouchedRefusal(dropped, 'foreign', `${dropped} is not a workplan database: it says schema version ${SCHEMA_VERSION}, but it has no trigger work_schedules_counted_out`);
    const changed = files.databasePath();
    await SqliteStorage.open({ path: changed }).close();
    const otherTrigger = new DatabaseSync(changed);
    otherTrigger.exec(`DROP TRIGGER cost_centers_counted_in;
      CREATE TRIGGER cost_centers_counted_in AFTER INSERT ON cost_centers BEGIN UPDATE record_counts SET records = records + 2; END`);
    otherTrigger.close();
    expectUntouchedRefusal(changed, 'foreign', `${changed} is not a workplan database: it says schema version ${SCHEMA_VERSION}, but its trigger cost_centers_counted_in does otherwise`);
  });

  it('a workplan database with a corrupt page, which it would otherwise serve until a write failed', async () => {
    const path = files.databasePath();
    const storage = SqliteStorage.open({ path });
    for (let n = 0; n < 200; n += 1) {
      const record = buildRecord(workSchedule, { text: `escala ${String(n)} ${'x'.repeat(40)}` });
      await storage.repositories.workSchedules.insert(creationOf(workSchedule, record), uniquenessKey(record.value));
    }
    await storage.close();
    damageTablePage(path, 'work_schedules');
    expectUntouchedRefusal(path, 'corrupt', new RegExp(`^${path} is corrupt \\(quick_check: .*page.*\\); restore it from a backup$`, 'u'));
  });
});

describe('SqliteStorage.open takes as new', () => {
  it.each([
    ['a file of no bytes', (path: string) => { writeFileSync(path, ''); }],
    ['a database with no tables', (path: string) => {
      const db = new DatabaseSync(path);
      db.exec('PRAGMA page_size = 8192; VACUUM');
      db.close();
    }],
  ])("%s, and makes workplan's tables in it", async (_, make) => {
    const path = files.databasePath();
    make(path);
    expect(existsSync(path)).toBe(true);
    const storage = files.open({ path });
    await expect(storage.repositories.workSchedules.list({ skip: 0, limit: 1 })).resolves.toEqual([]);
  });
});
