import { costCenter, uniquenessKey, workSchedule, type CatalogRecord } from '@workplan/core';
import { buildRecord, deleteRecord, updateRecord } from '@workplan/testing';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { addFoldFunction, FOLD_TEXT } from './folded-text.js';
import { countRecordsSql, CREATE_RECORD_COUNTS_SQL } from './record-counts.js';
import { createRecordTableSql, foldRecordTableSql } from './record-table.js';
import { SCHEMA_VERSION } from './schema.js';
import { CREATE_HIT_TABLE_SQL } from './sqlite-hit-counter.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

/** A file as schema version 3 left it: its tables and triggers, two records, and its version. */
function fileOfVersion3(path: string): CatalogRecord<'value'>[] {
  const db = new DatabaseSync(path);
  addFoldFunction(db);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(CREATE_HIT_TABLE_SQL);
  db.exec(CREATE_RECORD_COUNTS_SQL);
  for (const kind of [workSchedule, costCenter]) {
    db.exec(createRecordTableSql(kind));
    db.exec(foldRecordTableSql(kind));
    db.exec(countRecordsSql(kind));
  }
  const schedules = ['12x36', '6x1'].map((text) => buildRecord(workSchedule, { text }));
  for (const { id, value, createdAt, updatedAt } of schedules) {
    db.prepare(`INSERT INTO work_schedules (id, "text", "key", created_at, updated_at, folded) VALUES (?, ?, ?, ?, ?, ${FOLD_TEXT}(?))`)
      .run(id, value, uniquenessKey(value), createdAt.getTime(), updatedAt.getTime(), value);
  }
  db.exec('PRAGMA user_version = 3');
  db.close();
  return schedules;
}

describe('a file of schema version 3', () => {
  it('is migrated as it opens: its records kept, with no history, and every write from then on kept as a change', async () => {
    const path = files.databasePath();
    const [kept, removed] = fileOfVersion3(path) as [CatalogRecord<'value'>, CatalogRecord<'value'>];
    const storage = files.open({ path });
    const raw = new DatabaseSync(path, { readOnly: true });
    files.closeAfter(raw);
    expect(raw.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });

    const schedules = storage.repositories.workSchedules;
    await expect(schedules.findById(kept.id)).resolves.toEqual(kept);
    await expect(schedules.count()).resolves.toBe(2);
    // What was written before the log existed has no change: its history starts with its next write.
    await expect(storage.changes.history('workSchedule', kept.id, 0, 1000)).resolves.toEqual([]);
    await expect(storage.changes.read(0, 10)).resolves.toEqual([]);

    const renamed = await updateRecord(schedules, workSchedule, kept, { text: '12x60' });
    const deleted = await deleteRecord(schedules, workSchedule, removed);
    expect(renamed).toMatchObject({ id: '1', action: 'update', previous: kept });
    expect(deleted).toMatchObject({ id: '2', action: 'delete', previous: removed });
    await expect(storage.changes.read(0, 10)).resolves.toEqual([renamed, deleted]);
    await expect(storage.changes.history('workSchedule', kept.id, 0, 1000)).resolves.toEqual([renamed]);
  });
});
