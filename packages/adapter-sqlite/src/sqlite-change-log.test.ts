import { workSchedule } from '@workplan/core';
import { insertRecord } from '@workplan/testing';
import { describe, expect, it } from 'vitest';
import { DatabaseSync } from './node-sqlite.js';
import { migrate } from './schema.js';
import { CHANGE_POLL_MS, HISTORY_SQL } from './sqlite-change-log.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

/** How long after `commit` resolves the `waiting` promise settles, in ms (negative: before). */
async function wokenAfter(waiting: Promise<void>, commit: () => Promise<unknown>): Promise<number> {
  let wokenAt: number | undefined;
  void waiting.then(() => (wokenAt = performance.now()));
  await commit();
  const committedAt = performance.now();
  await waiting;
  return (wokenAt ?? Infinity) - committedAt;
}

describe('waiting for a change on SQLite', () => {
  it("wakes at once for a commit of the storage's own repositories", async () => {
    const storage = files.open({ path: files.databasePath() });
    const waiting = storage.changes.waitAfter(0, 10_000);
    const late = await wokenAfter(waiting, () => insertRecord(storage.repositories.workSchedules, workSchedule));
    // Woken in the same turn as the write's answer, before any poll.
    expect(late).toBeLessThan(CHANGE_POLL_MS / 2);
  });

  it('wakes within a poll for a commit of another connection to the file, such as another process', async () => {
    const path = files.databasePath();
    const waiter = files.open({ path });
    const writer = files.open({ path });
    await insertRecord(writer.repositories.workSchedules, workSchedule);
    const waiting = waiter.changes.waitAfter(1, 10_000);
    const late = await wokenAfter(waiting, () => insertRecord(writer.repositories.workSchedules, workSchedule));
    expect(late).toBeLessThan(CHANGE_POLL_MS + 100);
    // And not for a change at or before the one it waits after.
    const started = performance.now();
    await waiter.changes.waitAfter(2, 3 * CHANGE_POLL_MS);
    expect(performance.now() - started).toBeGreaterThanOrEqual(3 * CHANGE_POLL_MS - 5);
  });

  it('lets go of every waiter when the storage closes', async () => {
    const storage = files.open({ path: files.databasePath() });
    const waiting = storage.changes.waitAfter(0, 60_000);
    const started = performance.now();
    await storage.close();
    await waiting;
    expect(performance.now() - started).toBeLessThan(1000);
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
