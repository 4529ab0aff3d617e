import { creationOf, uniquenessKey, workSchedule } from '@workplan/core';
import { buildRecord, damageTablePage } from '@workplan/testing';
import { existsSync, linkSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { backupDatabase } from './backup.js';
import { SqliteOpenError } from './open-errors.js';
import { type SqliteStorage } from './sqlite-storage.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

async function fill(storage: SqliteStorage, count: number, prefix = 'escala') {
  const records = Array.from({ length: count }, (_, n) => buildRecord(workSchedule, { text: `${prefix} ${n}` }));
  for (const record of records) await storage.repositories.workSchedules.insert(creationOf(workSchedule, record), uniquenessKey(record.value));
  return records;
}

describe('backupDatabase', () => {
  it('copies a storage that keeps taking writes into a file that opens, holding every record from before the copy', async () => {
    const storage = files.open({ path: files.databasePath() });
    const before = await fill(storage, 500);
    const target = join(files.folder(), 'backups', 'copy.db');
    const copying = backupDatabase(storage, target);
    const during = await fill(storage, 1, 'durante');
    await expect(copying).resolves.toBeGreaterThan(0);
    const copied = await files.open({ path: target }).repositories.workSchedules.list({ skip: 0, limit: 1000 });
    // The write made while copying may or may not be in the copy, but the copy is one consistent state.
    expect([before, [...before, ...during]]).toContainEqual(copied);
  });

  it('finishes while writes go on without a pause, which would restart a copy made in steps', async () => {
    const path = files.databasePath();
    const storage = files.open({ path });
    const count = 20_000; // some 1,300 pages: 13 steps of the default 100
    const raw = new DatabaseSync(path);
    files.closeAfter(raw);
    const insert = raw.prepare('INSERT INTO work_schedules (id, "text", "key", created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
    raw.exec('BEGIN');
    for (let n = 0; n < count; n += 1) {
      const record = buildRecord(workSchedule, { text: `escala ${n}` });
      insert.run(record.id, record.value, uniquenessKey(record.value), record.createdAt.getTime(), record.updatedAt.getTime());
    }
    raw.exec('COMMIT');
    const load = { writing: true };
    const writes = (async () => {
      for (let n = 0; load.writing; n += 1) await fill(storage, 1, `durante ${n}`);
    })();
    const target = join(files.folder(), 'copy.db');
    const outcome = await Promise.race([
      backupDatabase(storage, target).then(() => 'copied'),
      delay(10_000).then(() => 'still copying after 10 s'),
    ]);
    load.writing = false;
    await writes;
    expect(outcome).toBe('copied');
    const copy = new DatabaseSync(target, { readOnly: true });
    files.closeAfter(copy);
    expect(copy.prepare('SELECT count(*) AS n FROM work_schedules WHERE "text" LIKE \'escala %\'').get()).toEqual({ n: count });
  }, 30_000);

  it('copies a file by path without opening it as a storage', async () => {
    const path = files.databasePath();
    const storage = files.open({ path });
    const records = await fill(storage, 3);
    const target = join(files.folder(), 'copy.db');
    await backupDatabase(path, target);
    const copy = files.open({ path: target });
    await expect(copy.repositories.workSchedules.list({ skip: 0, limit: 10 })).resolves.toEqual(records);
  });

  it('refuses a source that is no database, or a target that is not one, naming the file, and makes no copy (SQLite fault 6)', async () => {
    const folder = files.folder();
    const notes = join(folder, 'notes.txt');
    writeFileSync(notes, 'not a database\n'.repeat(50));
    const target = join(folder, 'copy.db');
    await expect(backupDatabase(notes, target)).rejects.toSatisfy(
      (error) => SqliteOpenError.is(error) && error.kind === 'notADatabase' && error.message === `${notes} is not a SQLite database`,
    );
    expect(existsSync(target)).toBe(false);
    const source = files.databasePath();
    await files.open({ path: source }).close();
    await expect(backupDatabase(source, notes)).rejects.toSatisfy(
      (error) => SqliteOpenError.is(error) && error.kind === 'notADatabase' && error.path === notes,
    );
  });

  it('refuses a source or a target that is a folder or is written as one (ending in /), and makes nothing', async () => {
    const source = files.databasePath();
    await files.open({ path: source }).close();
    const folder = files.folder();
    const refusedAs = (path: string, what: string) => (error: unknown) =>
      SqliteOpenError.is(error) && error.kind === 'notAFile' && error.path === path && error.message === `${path} is ${what}: give the path of a database file`;
    await expect(backupDatabase(`${source}/`, join(folder, 'copy.db'))).rejects.toSatisfy(refusedAs(`${source}/`, 'written as a folder'));
    await expect(backupDatabase(source, `${folder}/copy.db/`)).rejects.toSatisfy(refusedAs(`${folder}/copy.db/`, 'written as a folder'));
    await expect(backupDatabase(source, folder)).rejects.toSatisfy(refusedAs(folder, 'a folder'));
    await expect(backupDatabase(source, `${folder}/copy/.`)).rejects.toSatisfy(refusedAs(`${folder}/copy/`, 'written as a folder'));
    const storage = files.open({ path: ':memory:' });
    await expect(backupDatabase(storage, `${folder}/copy.db/`)).rejects.toSatisfy(refusedAs(`${folder}/copy.db/`, 'written as a folder'));
    expect(readdirSync(folder)).toEqual([]);
  });

  it('refuses a damaged source, naming it as corrupt, and keeps no copy that would pass for a backup', async () => {
    const path = files.databasePath();
    const storage = files.open({ path });
    await fill(storage, 200);
    await storage.close();
    damageTablePage(path, 'work_schedules');
    const folder = files.folder();
    const target = join(folder, 'copy.db');
    await expect(backupDatabase(path, target)).rejects.toSatisfy(
      (error) => SqliteOpenError.is(error) && error.kind === 'corrupt' && error.path === path && error.message.startsWith(`${path} is corrupt (quick_check: `),
    );
    expect(readdirSync(folder)).toEqual([]);
  });

  it('refuses to copy a database onto itself, its link or a file SQLite keeps beside it, leaving every one as it was', async () => {
    const path = files.databasePath();
    const storage = files.open({ path });
    const records = await fill(storage, 3);
    const link = join(files.folder(), 'link.db');
    symlinkSync(path, link);
    const walBefore = readFileSync(`${path}-wal`);
    // A link to a file SQLite keeps beside it that is not there yet: SQLite would follow it.
    const dangling = join(files.folder(), 'dangling.db');
    symlinkSync(`${path}-journal`, dangling);
    // Another name of the -wal itself.
    const hard = join(files.folder(), 'hard.db');
    linkSync(`${path}-wal`, hard);
    for (const target of [path, link, `${path}-wal`, `${path}-shm`, `${path}-journal`, dangling, hard]) {
      for (const source of [path, storage]) {
        await expect(backupDatabase(source, target), target).rejects.toSatisfy(
          (error) =>
            SqliteOpenError.is(error) && error.kind === 'isSource' && error.path === target &&
            error.message === `${target} is the database being copied or a file SQLite keeps beside it: name another file for the copy`,
        );
      }
    }
    expect(readFileSync(`${path}-wal`)).toEqual(walBefore);
    expect(existsSync(`${path}-journal`)).toBe(false);
    await expect(storage.repositories.workSchedules.list({ skip: 0, limit: 10 })).resolves.toEqual(records);
  });
});
