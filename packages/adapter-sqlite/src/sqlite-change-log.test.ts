import { workSchedule } from '@workplan/core';
import { insertRecord, isSettled } from '@workplan/testing';
import { describe, expect, it } from 'vitest';
import { DatabaseSync } from './node-sqlite.js';
import { migrate } from './schema.js';
import { CHANGE_POLL_MS, HISTORY_SQL } from './sqlite-change-log.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

describe('waiting for a change on SQLite', () => {
  it("wakes at once for a commit of the storage's own repositories", async () => {
    const storage = files.open({ path: files.databasePath() });
    const waiting = storage.changes.waitAfter(0, 60_000);
    expect(await isSettled(waiting)).toBe(false);
    await insertRecord(storage.repositories.workSchedules, workSchedule);
    // Woken by the time the write is answered (an order, not a time), not a poll later.
    expect(await isSettled(waiting)).toBe(true);
  });

  it('wakes within a poll for a commit of another connection to the file, such as another process', async () => {
    const path = files.databasePath();
    const waiter = files.open({ path });
    const writer = files.open({ path });
    await insertRecord(writer.repositories.workSchedules, workSchedule);
    // Given longer than the test may run: only a poll of the file can wake it in time.
    const waiting = waiter.changes.waitAfter(1, 60_000);
    expect(await isSettled(waiting)).toBe(false);
    await insertRecord(writer.repositories.workSchedules, workSchedule);
    await waiting;
    // And not for a change at or before the one it waits after.
    const started = performance.now();
    await waiter.changes.waitAfter(2, 3 * CHANGE_POLL_MS);
    expect(performance.now() - started).toBeGreaterThanOrEqual(3 * CHANGE_POLL_MS - 5);
  });

  it('lets go of every waiter when the storage closes', async () => {
    const storage = files.open({ path: files.databasePath() });
    const waiting = storage.changes.waitAfter(0, 60_000);
    await storage.close();
    expect(await isSettled(waiting)).toBe(true);
  });
});

describe("a record's history on SQLite", () => {
  it('reads a page as one range of the index on the record, in order, with no sort and no scan', () => {
    const db = new DatabaseSync(':memory:');
    migrate(db, ':memory:');
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${HISTORY_SQL}`).all('workSchedule', 'id', 0, 100).map((row) => String(row.detail));
    db.close();
    expect(plan).toEqual(['SEARCH changes USING INDEX changes_of_record (record_id=? AND rowid>?)']);
  });
});
