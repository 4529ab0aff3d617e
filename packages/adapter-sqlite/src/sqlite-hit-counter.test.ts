import { costCenter, uniquenessKey, workSchedule } from '@workplan/core';
import { buildRecord } from '@workplan/testing';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { createRecordTableSql } from './record-table.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();
const MINUTE = 60_000;
const now = Math.floor(Date.now() / MINUTE) * MINUTE;

describe('SqliteHitCounter', () => {
  it('hostile 6: counts the hits of every storage on one file together, key by key', async () => {
    const path = files.databasePath();
    const [first, second] = [files.open({ path }), files.open({ path })];
    const hits = [];
    for (const storage of [first, second, first, second]) hits.push(await storage.hitCounter.hit('requests:a', now, MINUTE));
    expect(hits).toEqual([1, 2, 3, 4]);
    await expect(second.hitCounter.hit('requests:b', now, MINUTE)).resolves.toBe(1);
  });

  it('starts each window from one, and forgets the windows that ended', async () => {
    const path = files.databasePath();
    const storage = files.open({ path });
    await storage.hitCounter.hit('requests:a', now, MINUTE);
    await storage.hitCounter.hit('requests:a', now, MINUTE);
    await expect(storage.hitCounter.hit('requests:a', now + MINUTE, MINUTE)).resolves.toBe(1);
    const db = new DatabaseSync(path, { readOnly: true });
    files.closeAfter(db);
    expect(db.prepare('SELECT window_start, hits FROM rate_limit_hits').all()).toEqual([{ window_start: now + MINUTE, hits: 1 }]);
  });

  it('comes to a file of schema version 1 by migration, its records kept', async () => {
    const path = files.databasePath();
    const record = buildRecord(workSchedule, { text: '12x36' });
    const old = new DatabaseSync(path);
    old.exec(createRecordTableSql(workSchedule));
    old.exec(createRecordTableSql(costCenter));
    old.prepare('INSERT INTO work_schedules (id, "text", "key", created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
      .run(record.id, record.value, uniquenessKey(record.value), record.createdAt.getTime(), record.updatedAt.getTime());
    old.exec('PRAGMA user_version = 1');
    old.close();
    const migrated = files.open({ path });
    await expect(migrated.hitCounter.hit('requests:a', now, MINUTE)).resolves.toBe(1);
    await expect(migrated.repositories.workSchedules.findById(record.id)).resolves.toEqual(record);
  });
});
