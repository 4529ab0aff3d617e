import { creationOf, uniquenessKey, workSchedule, WorkplanError } from '@workplan/core';
import { buildRecord } from '@workplan/testing';
import { copyFileSync, renameSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { type StorageReport } from './file-faults.js';
import { FileIdentity } from './file-identity.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

const unavailable = (error: unknown): boolean => WorkplanError.is(error) && error.kind === 'storageUnavailable';

/** Resolves once `condition` holds, checked every 50 ms; rejects after `ms`, a safety net however slow the machine. */
async function until(condition: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What the database file holds on its own, without its -wal: its quick check and its work schedules' texts, sorted. */
function fileAlone(path: string): { check: unknown; texts: unknown[] } {
  const copy = `${path}.alone`;
  copyFileSync(path, copy);
  const alone = new DatabaseSync(copy, { readOnly: true });
  try {
    const check = alone.prepare('PRAGMA quick_check').get()?.['quick_check'];
    return { check, texts: alone.prepare('SELECT "text" FROM work_schedules').all().map((row) => row['text']).sort() };
  } finally {
    alone.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${copy}${suffix}`, { force: true });
  }
}

describe('FileIdentity', () => {
  it('tells the opened file from one deleted, replaced by a copy, or moved away, and knows it again once back', async () => {
    const path = files.databasePath();
    files.open({ path });
    const file = new FileIdentity(path);
    expect(file.change()).toBeUndefined();
    await expect(file.changeAsync()).resolves.toBeUndefined();

    renameSync(path, `${path}.away`);
    expect(file.change()?.of).toBe('file');
    copyFileSync(`${path}.away`, path);
    // The same bytes at the same path, but another file: writes to the opened one would not reach it.
    expect(file.change()?.of).toBe('file');
    await expect(file.changeAsync()).resolves.toMatchObject({ of: 'file' });
    rmSync(path);
    renameSync(`${path}.away`, path);
    expect(file.change()).toBeUndefined();
  });
});

describe('a storage whose file leaves its path', () => {
  it('is not ready and refuses every call within a second, told in one error naming the path, and serves again once the file is back', async () => {
    const path = files.databasePath();
    const reports: StorageReport[] = [];
    const storage = files.open({ path, report: (report) => reports.push(report) });
    expect(storage.created).toBe(true);
    const record = buildRecord(workSchedule, { text: '12x36' });
    await storage.repositories.workSchedules.insert(creationOf(workSchedule, record), uniquenessKey('12x36'));

    for (const suffix of ['', '-wal', '-shm']) renameSync(`${path}${suffix}`, `${path}${suffix}.away`);
    await until(async () => !(await storage.isReady()));
    await expect(storage.repositories.workSchedules.findById(record.id)).rejects.toSatisfy(unavailable);
    await expect(storage.repositories.workSchedules.list({ skip: 0, limit: 10 })).rejects.toSatisfy(unavailable);
    const other = buildRecord(workSchedule, { text: '6x1' });
    await expect(storage.repositories.workSchedules.insert(creationOf(workSchedule, other), uniquenessKey('6x1'))).rejects.toSatisfy(unavailable);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ level: 'error', message: expect.stringContaining(`${path} cannot serve`) as unknown });

    for (const suffix of ['', '-wal', '-shm']) renameSync(`${path}${suffix}.away`, `${path}${suffix}`);
    await until(() => storage.isReady());
    await expect(storage.repositories.workSchedules.findById(record.id)).resolves.toMatchObject({ value: '12x36' });
    await storage.repositories.workSchedules.insert(creationOf(workSchedule, other), uniquenessKey('6x1'));
  });

  it('refuses every call once the files beside it (-wal, -shm) are deleted, and keeps in the file itself every write it acknowledged', async () => {
    const path = files.databasePath();
    const reports: StorageReport[] = [];
    const storage = files.open({ path, report: (report) => reports.push(report) });
    const { workSchedules } = storage.repositories;
    const insert = (text: string) => workSchedules.insert(creationOf(workSchedule, buildRecord(workSchedule, { text })), uniquenessKey(text));
    const acknowledged: string[] = [];
    for (const text of ['12x36', '6x1', '5x2']) {
      await insert(text);
      acknowledged.push(text);
    }
    for (const suffix of ['-wal', '-shm']) rmSync(`${path}${suffix}`);
    // Whatever a write is answered before the deletion is noticed, it must be in the file.
    for (const text of ['4x3', '3x3']) {
      const failure = await insert(text).then(() => undefined, (error: unknown) => error);
      if (failure === undefined) acknowledged.push(text);
      else expect(failure).toSatisfy(unavailable);
    }
    await until(async () => !(await storage.isReady()));
    await expect(insert('2x2')).rejects.toSatisfy(unavailable);
    await expect(workSchedules.list({ skip: 0, limit: 10 })).rejects.toSatisfy(unavailable);
    expect(reports[0]).toMatchObject({ level: 'error', message: expect.stringContaining(`${path} cannot serve`) as unknown });
    expect(reports[0]?.message).toContain('-wal');

    // What a process killed now leaves at the path: the file alone, as a copy shows it.
    const copy = `${path}.alone`;
    copyFileSync(path, copy);
    const alone = new DatabaseSync(copy, { readOnly: true });
    try {
      const rows = alone.prepare('SELECT "text" FROM work_schedules').all().map((row) => row['text']);
      expect([...rows].sort()).toEqual([...acknowledged].sort());
    } finally {
      alone.close();
    }
  });

  it('keeps copying the -wal into the file while a reader holds part of it back, until every acknowledged write is in the file', async () => {
    const path = files.databasePath();
    const storage = files.open({ path });
    const { workSchedules } = storage.repositories;
    const insert = (text: string) => workSchedules.insert(creationOf(workSchedule, buildRecord(workSchedule, { text })), uniquenessKey(text));
    await insert('12x36');
    // Another connection (a long search, a backup, another process) reading from before the next writes.
    const reader = new DatabaseSync(path, { readOnly: true });
    files.closeAfter(reader);
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM work_schedules').get();
    await insert('6x1');
    await insert('5x2');
    for (const suffix of ['-wal', '-shm']) rmSync(`${path}${suffix}`);
    await until(async () => !(await storage.isReady()));
    await new Promise((resolve) => setTimeout(resolve, 1200));
    reader.exec('COMMIT');
    // The next checks copy what the reader held back: in the file alone, sound, once they have run.
    await expect.poll(() => fileAlone(path), { timeout: 20_000, interval: 100 }).toEqual({ check: 'ok', texts: ['12x36', '5x2', '6x1'] });
    expect(await storage.isReady()).toBe(false);
  });

  it('copies the -wal again when it is deleted after it went away and came back: the writes made between are in the file', async () => {
    const path = files.databasePath();
    const storage = files.open({ path });
    const { workSchedules } = storage.repositories;
    const insert = (text: string) => workSchedules.insert(creationOf(workSchedule, buildRecord(workSchedule, { text })), uniquenessKey(text));
    await insert('12x36');
    renameSync(`${path}-wal`, `${path}-wal.away`);
    await until(async () => !(await storage.isReady()));
    renameSync(`${path}-wal.away`, `${path}-wal`);
    await until(() => storage.isReady());
    await insert('6x1');
    rmSync(`${path}-wal`);
    await until(async () => !(await storage.isReady()));
    await expect.poll(() => fileAlone(path), { timeout: 20_000, interval: 100 }).toEqual({ check: 'ok', texts: ['12x36', '6x1'] });
  });

  it('says whether opening made the file', () => {
    const path = files.databasePath();
    expect(files.open({ path }).created).toBe(true);
    expect(files.open({ path }).created).toBe(false);
    expect(files.open({ path: ':memory:' }).created).toBe(false);
  });
});
