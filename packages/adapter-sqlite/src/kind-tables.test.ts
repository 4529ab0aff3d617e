import { creationOf, CREATION_ORDER, uniquenessKey } from '@workplan/core';
import { buildRecord, department, kindsWithDepartments } from '@workplan/testing';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SqliteStorage } from './sqlite-storage.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

function openWithDepartments(path: string): SqliteStorage<typeof kindsWithDepartments> {
  const storage = SqliteStorage.open({ path, kinds: kindsWithDepartments });
  files.closeAfter(storage);
  return storage;
}

async function insertDepartment(storage: SqliteStorage<typeof kindsWithDepartments>, text: string) {
  const record = buildRecord(department, { text });
  await storage.repositories.departments.insert(creationOf(department, record), uniquenessKey(text));
  return record;
}

describe('a kind of record added after the migrations', () => {
  it('gets its table, searched and counted, when a file of the seed is opened with it, and the file still opens without it', async () => {
    const path = files.databasePath();
    files.open({ path });
    const storage = openWithDepartments(path);
    const record = await insertDepartment(storage, 'Logística');
    await expect(storage.repositories.departments.findById(record.id)).resolves.toEqual(record);
    const found = await storage.repositories.departments.query({ search: 'logistica', order: CREATION_ORDER, limit: 10, skip: 0, count: true });
    expect({ ids: found.records.map((each) => each.id), total: found.total }).toEqual({ ids: [record.id], total: 1 });
    await expect(storage.changes.read(0, 10)).resolves.toMatchObject([{ kind: 'department', recordId: record.id, data: record }]);
    // Its table is let be by a storage that does not serve it, and found again by one that does.
    await expect(files.open({ path }).repositories.workSchedules.count()).resolves.toBe(0);
    await expect(openWithDepartments(path).repositories.departments.findById(record.id)).resolves.toEqual(record);
  });

  it('keeps, when discarded, a file it made that holds a record of that kind only', async () => {
    const path = files.databasePath();
    const made = openWithDepartments(path);
    await insertDepartment(made, 'Compras');
    await made.discard();
    expect(existsSync(path)).toBe(true);
    const empty = openWithDepartments(files.databasePath());
    await empty.discard();
    expect(existsSync(empty.path)).toBe(false);
  });
});
