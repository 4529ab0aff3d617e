import { creationOf, costCenter, foldText, uniquenessKey, workSchedule, type CatalogRecord, type RecordBase } from '@workplan/core';
import { buildRecord } from '@workplan/testing';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { createRecordTableSql } from './record-table.js';
import { SCHEMA_VERSION } from './schema.js';
import { CREATE_HIT_TABLE_SQL } from './sqlite-hit-counter.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

const TEXTS = ['Manutenção Elétrica', 'Zeladoria', 'alvaro noturno', 'Álvaro  diurno'];

/** A file as schema version 2 left it: its tables, rows written without a folded text, and its version. */
function fileOfVersion2(path: string): CatalogRecord<'value'>[] {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(createRecordTableSql(workSchedule));
  db.exec(createRecordTableSql(costCenter));
  db.exec(CREATE_HIT_TABLE_SQL);
  const insert = (table: string, record: RecordBase, text: string): void => {
    db.prepare(`INSERT INTO ${table} (id, "text", "key", created_at, updated_at) VALUES (?, ?, ?, ?, ?)`)
      .run(record.id, text, uniquenessKey(text), record.createdAt.getTime(), record.updatedAt.getTime());
  };
  const schedules = TEXTS.map((text, n) => buildRecord(workSchedule, { text, createdAt: new Date(Date.UTC(2026, 0, n + 1)) }));
  for (const schedule of schedules) insert('work_schedules', schedule, schedule.value);
  insert('cost_centers', buildRecord(costCenter, { text: 'Financeiro' }), 'Financeiro');
  db.exec('PRAGMA user_version = 2');
  db.close();
  return schedules;
}

describe('a file of schema version 2', () => {
  it('is migrated as it opens: the folded text of every record filled, counted, searched and sorted as a new file would be', async () => {
    const path = files.databasePath();
    const schedules = fileOfVersion2(path);
    const storage = files.open({ path });
    const repository = storage.repositories.workSchedules;

    const raw = new DatabaseSync(path, { readOnly: true });
    files.closeAfter(raw);
    expect(raw.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    for (const { text, folded } of raw.prepare('SELECT "text", folded FROM work_schedules').all()) expect(folded).toBe(foldText(String(text)));

    await expect(repository.count()).resolves.toBe(4);
    await expect(storage.repositories.costCenters.count()).resolves.toBe(1);
    const byText = { field: 'text', descending: false } as const;
    const found = await repository.query({ search: 'alvaro', order: byText, skip: 0, limit: 10, count: true });
    expect(found.records.map((record) => record.value)).toEqual(['Álvaro  diurno', 'alvaro noturno']);
    expect(found.total).toBe(2);
    const sorted = await repository.query({ order: byText, skip: 0, limit: 10, count: false });
    expect(sorted.records).toEqual([schedules[3], schedules[2], schedules[0], schedules[1]]);
    const search = await repository.query({ search: foldText('manutenção'), order: { field: 'createdAt', descending: true }, skip: 0, limit: 10, count: false });
    expect(search.records).toEqual([schedules[0]]);
  });

  it('is, once migrated, a file of the current version: it opens again, and counts what is written after', async () => {
    const path = files.databasePath();
    fileOfVersion2(path);
    await files.open({ path }).close();
    const again = files.open({ path });
    await again.repositories.workSchedules.insert(creationOf(workSchedule, buildRecord(workSchedule, { text: 'Elétrica' })), 'elétrica');
    await expect(again.repositories.workSchedules.count()).resolves.toBe(5);
    const found = await again.repositories.workSchedules.query({
      search: 'eletrica',
      order: { field: 'createdAt', descending: false },
      skip: 0,
      limit: 10,
      count: true,
    });
    expect(found.records.map((record) => record.value)).toEqual(['Manutenção Elétrica', 'Elétrica']);
    expect(found.total).toBe(2);
  });
});
