import { uniquenessKey, workSchedule } from '@workplan/core';
import { buildRecord } from '@workplan/testing';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, StatementSync } from 'node:sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type SqliteStorage } from './sqlite-storage.js';
import { useTempFiles } from './test-support/temp-files.js';
import { WalIndex } from './wal-index.js';

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

afterEach(() => {
  vi.restoreAllMocks();
});

// A storage on a file keeps the records found lately while its WAL index says nothing
// was committed since; these are the commits that must end that.
describe('a record found again', () => {
  it('is served without a query while nothing was committed, and read again after a commit', async () => {
    const path = files.databasePath();
    const storage = files.open({ path });
    const record = await insert(storage, '12x36');
    const queries = vi.spyOn(StatementSync.prototype, 'get');
    expect(await textOf(storage, record.id)).toBe('12x36');
    expect(queries).toHaveBeenCalledTimes(1);
    expect(await textOf(storage, record.id)).toBe('12x36');
    expect(await textOf(storage, record.id)).toBe('12x36');
    expect(queries).toHaveBeenCalledTimes(1);
    setTextAround(path, record.id, 'changed');
    expect(await textOf(storage, record.id)).toBe('changed');
    expect(queries).toHaveBeenCalledTimes(2);
  });

  it('is read from the file a link points to, where SQLite keeps the WAL index', async () => {
    const path = files.databasePath();
    const link = join(files.folder(), 'linked.db');
    files.open({ path }); // makes the file
    symlinkSync(path, link);
    const storage = files.open({ path: link });
    const record = await insert(storage, '12x36');
    const queries = vi.spyOn(StatementSync.prototype, 'get');
    expect(await textOf(storage, record.id)).toBe('12x36');
    expect(await textOf(storage, record.id)).toBe('12x36');
    expect(queries).toHaveBeenCalledTimes(1); // the index was found, and kept the record
    setTextAround(path, record.id, 'changed');
    expect(await textOf(storage, record.id)).toBe('changed');
  });

  it('shows what another connection committed since, even one around the repositories', async () => {
    const path = files.databasePath();
    const storage = files.open({ path });
    const record = await insert(storage, '12x36');
    expect(await textOf(storage, record.id)).toBe('12x36');
    expect(await textOf(storage, record.id)).toBe('12x36');
    setTextAround(path, record.id, 'changed');
    expect(await textOf(storage, record.id)).toBe('changed');
  });

  it('shows what another process committed since, and that it deleted the record', async () => {
    const path = files.databasePath();
    const storage = files.open({ path });
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
    const other = files.open({ path });
    await other.repositories.workSchedules.delete(record.id);
    expect(await storage.repositories.workSchedules.findById(record.id)).toBeUndefined();
  });

  it('shows what this storage wrote since', async () => {
    const storage = files.open({ path: files.databasePath() });
    const record = await insert(storage, '12x36');
    expect(await textOf(storage, record.id)).toBe('12x36');
    const updatedAt = new Date(record.updatedAt.getTime() + 1);
    await storage.repositories.workSchedules.update(record.id, { text: '5x2', key: uniquenessKey('5x2'), updatedAt });
    expect(await textOf(storage, record.id)).toBe('5x2');
    await storage.repositories.workSchedules.delete(record.id);
    expect(await textOf(storage, record.id)).toBeUndefined();
  });

  it('gives a new record each time, so a caller changing one changes nothing kept', async () => {
    const storage = files.open({ path: files.databasePath() });
    const record = await insert(storage, '12x36');
    const found = await storage.repositories.workSchedules.findById(record.id);
    (found as { value: string }).value = 'changed';
    found?.updatedAt.setTime(0);
    const again = await storage.repositories.workSchedules.findById(record.id);
    expect(again?.value).toBe('12x36');
    expect(again?.updatedAt.getTime()).toBe(record.updatedAt.getTime());
  });

  it('is still read from the file by a storage that lives on after another on the same file closed', async () => {
    const path = files.databasePath();
    const storage = files.open({ path });
    const record = await insert(storage, '12x36');
    await files.open({ path }).close();
    const queries = vi.spyOn(StatementSync.prototype, 'get');
    expect(await textOf(storage, record.id)).toBe('12x36');
    expect(await textOf(storage, record.id)).toBe('12x36');
    expect(queries).toHaveBeenCalledTimes(1); // its index still reads the file
    setTextAround(path, record.id, 'changed');
    expect(await textOf(storage, record.id)).toBe('changed');
  });

  it('is read afresh each time when the WAL index cannot be opened, and still never stale', async () => {
    const path = files.databasePath();
    vi.spyOn(WalIndex, 'open').mockImplementation(() => {
      throw Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' });
    });
    const storage = files.open({ path });
    const record = await insert(storage, '12x36');
    const queries = vi.spyOn(StatementSync.prototype, 'get');
    expect(await textOf(storage, record.id)).toBe('12x36');
    expect(await textOf(storage, record.id)).toBe('12x36');
    const finds = (queries.mock.contexts as { sourceSQL?: string }[]).filter((statement) => statement.sourceSQL?.startsWith('SELECT id') === true);
    expect(finds).toHaveLength(2);
    setTextAround(path, record.id, 'changed');
    expect(await textOf(storage, record.id)).toBe('changed');
  });
});

describe('a page listed again from a storage on a file', () => {
  it('shows a write made around the repositories: the WAL index sees every commit', async () => {
    const path = files.databasePath();
    const storage = files.open({ path });
    const record = await insert(storage, '12x36');
    const page = { skip: 0, limit: 10 };
    expect((await storage.repositories.workSchedules.list(page)).map((found) => found.value)).toEqual(['12x36']);
    setTextAround(path, record.id, 'changed');
    expect((await storage.repositories.workSchedules.list(page)).map((found) => found.value)).toEqual(['changed']);
  });
});
