import { uniquenessKey, workSchedule } from '@workplan/core';
import { buildRecord } from '@workplan/testing';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { DatabaseSync, StatementSync } from 'node:sqlite';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type SqliteStorage } from './sqlite-storage.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

async function insert(storage: SqliteStorage, text: string) {
  const record = buildRecord(workSchedule, { text });
  await storage.repositories.workSchedules.insert(record, uniquenessKey(text));
  return record;
}

const textOf = async (storage: SqliteStorage, id: string) => (await storage.repositories.workSchedules.findById(id))?.value;

/** Sets a record's text with a connection of its own, around every repository, as an operator's tool would. */
function setTextAround(path: string, id: string, text: string): void {
  const db = new DatabaseSync(path);
  try {
    db.prepare('UPDATE work_schedules SET "text" = ? WHERE id = ?').run(text, id);
  } finally {
    db.close();
  }
}

/** Counts the finds by id that reach SQLite from now on. */
function countFinds(): () => number {
  const gets = vi.spyOn(StatementSync.prototype, 'get');
  const isFind = (sql = ''): boolean => sql.startsWith('SELECT') && sql.endsWith('WHERE id = ?');
  return () => (gets.mock.contexts as { sourceSQL?: string }[]).filter((statement) => isFind(statement.sourceSQL)).length;
}

afterEach(() => {
  vi.restoreAllMocks();
});

// A storage that shares each turn's reads keeps the records found lately while nothing was
// committed; these are the commits that must end that.
describe('a record found again by a storage sharing its reads per turn', () => {
  it('is served without a query, in later turns too, while nothing was committed', async () => {
    const path = files.databasePath();
    const storage = files.open({ path, shareReadsPerTurn: true });
    const record = await insert(storage, '12x36');
    const finds = countFinds();
    expect(await textOf(storage, record.id)).toBe('12x36');
    await nextTurn();
    expect(await textOf(storage, record.id)).toBe('12x36');
    expect(await textOf(storage, record.id)).toBe('12x36');
    expect(finds()).toBe(1);
    setTextAround(path, record.id, 'changed');
    await nextTurn();
    expect(await textOf(storage, record.id)).toBe('changed');
    expect(finds()).toBe(2);
  });

  it('shows what another process committed, and that another storage deleted it', async () => {
    const path = files.databasePath();
    const storage = files.open({ path, shareReadsPerTurn: true });
    const record = await insert(storage, '12x36');
    expect(await textOf(storage, record.id)).toBe('12x36');
    const script = `
      const { DatabaseSync } = await import('node:sqlite');
      const db = new DatabaseSync(${JSON.stringify(path)});
      db.prepare('UPDATE work_schedules SET "text" = ? WHERE id = ?').run('from another process', ${JSON.stringify(record.id)});
      db.close();`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
    expect((await once(child, 'exit'))[0]).toBe(0);
    expect(await textOf(storage, record.id)).toBe('from another process');
    const other = files.open({ path, shareReadsPerTurn: true });
    await other.repositories.workSchedules.delete(record.id);
    expect(await storage.repositories.workSchedules.findById(record.id)).toBeUndefined();
  });

  it('shows what this storage wrote, as soon as the write is answered', async () => {
    const storage = files.open({ path: files.databasePath(), shareReadsPerTurn: true });
    const record = await insert(storage, '12x36');
    expect(await textOf(storage, record.id)).toBe('12x36');
    const updatedAt = new Date(record.updatedAt.getTime() + 1);
    await storage.repositories.workSchedules.update(record.id, { text: '5x2', key: uniquenessKey('5x2'), updatedAt });
    expect(await textOf(storage, record.id)).toBe('5x2');
    await storage.repositories.workSchedules.delete(record.id);
    expect(await textOf(storage, record.id)).toBeUndefined();
  });

  it('gives a new record each time, so a caller changing one changes nothing kept', async () => {
    const storage = files.open({ path: files.databasePath(), shareReadsPerTurn: true });
    const record = await insert(storage, '12x36');
    const found = await storage.repositories.workSchedules.findById(record.id);
    (found as { value: string }).value = 'changed';
    found?.updatedAt.setTime(0);
    const again = await storage.repositories.workSchedules.findById(record.id);
    expect(again?.value).toBe('12x36');
    expect(again?.updatedAt.getTime()).toBe(record.updatedAt.getTime());
  });
});

describe('a record found again by a storage whose reads stand alone', () => {
  it('is queried each time', async () => {
    const storage = files.open({ path: files.databasePath() });
    const record = await insert(storage, '12x36');
    const finds = countFinds();
    expect(await textOf(storage, record.id)).toBe('12x36');
    expect(await textOf(storage, record.id)).toBe('12x36');
    expect(finds()).toBe(2);
  });
});
