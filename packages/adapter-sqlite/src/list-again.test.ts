import { creationOf, uniquenessKey, workSchedule } from '@workplan/core';
import { buildRecord, deleteRecord, updateRecord } from '@workplan/testing';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { SqliteRecordRepository } from './sqlite-repository.js';
import { type SqliteStorage } from './sqlite-storage.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();
const page = { skip: 0, limit: 10 };

async function insert(storage: SqliteStorage, text: string) {
  const record = buildRecord(workSchedule, { text });
  await storage.repositories.workSchedules.insert(creationOf(workSchedule, record), uniquenessKey(text));
  return record;
}

const textsOf = async (storage: SqliteStorage) => (await storage.repositories.workSchedules.list(page)).map((record) => record.value);

// A list read again shows every write committed since, however it was made.
describe('a list read again', () => {
  it('shows what another connection to the file committed since', async () => {
    const path = files.databasePath();
    const serving = files.open({ path });
    await insert(serving, '12x36');
    expect(await textsOf(serving)).toEqual(['12x36']);
    const other = files.open({ path });
    const added = await insert(other, '6x1');
    expect(await textsOf(serving)).toEqual(['12x36', '6x1']);
    await deleteRecord(other.repositories.workSchedules, workSchedule, added);
    expect(await textsOf(serving)).toEqual(['12x36']);
  });

  it('shows what this connection wrote since, through any repository of the kind', async () => {
    const storage = files.open({ path: files.databasePath() });
    const first = await insert(storage, '12x36');
    expect(await textsOf(storage)).toEqual(['12x36']);
    const another = storage.repositoryFor(workSchedule);
    await updateRecord(another, workSchedule, first, { text: '5x2' });
    expect(await textsOf(storage)).toEqual(['5x2']);
  });

  it('shows what this connection inserted and deleted since', async () => {
    const storage = files.open({ path: files.databasePath() });
    const first = await insert(storage, '12x36');
    expect(await textsOf(storage)).toEqual(['12x36']);
    await insert(storage, '6x1');
    expect(await textsOf(storage)).toEqual(['12x36', '6x1']);
    await deleteRecord(storage.repositories.workSchedules, workSchedule, first);
    expect(await textsOf(storage)).toEqual(['6x1']);
  });

  it('keeps nothing read inside a transaction, which a rollback could undo unseen', async () => {
    const path = files.databasePath();
    files.open({ path }); // makes the schema
    const db = new DatabaseSync(path);
    files.closeAfter(db);
    const repository = new SqliteRecordRepository(db, workSchedule);
    db.exec('BEGIN');
    await repository.insert(creationOf(workSchedule, buildRecord(workSchedule, { text: '12x36' })), uniquenessKey('12x36'));
    expect((await repository.list(page)).map((record) => record.value)).toEqual(['12x36']);
    db.exec('ROLLBACK');
    expect(await repository.list(page)).toEqual([]);
  });

  it('gives new records each time, so a caller changing one changes nothing stored', async () => {
    const storage = files.open({ path: files.databasePath() });
    await insert(storage, '12x36');
    const [listed] = await storage.repositories.workSchedules.list(page);
    (listed as { value: string }).value = 'changed';
    listed?.updatedAt.setTime(0);
    const [again] = await storage.repositories.workSchedules.list(page);
    expect(again?.value).toBe('12x36');
    expect(again?.updatedAt.getTime()).not.toBe(0);
  });
});
