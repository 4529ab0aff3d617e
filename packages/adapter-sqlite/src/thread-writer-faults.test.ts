import { WorkplanError } from '@workplan/core';
import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { isSettled } from '@workplan/testing';
import { describe, expect, it, vi } from 'vitest';
import { BegunWrites } from './begun-writes.js';
import { isBusy, isFileFault, SQLITE_READONLY_DBMOVED, sqliteCodeOf } from './sqlite-errors.js';
import { ThreadWriter } from './sqlite-writer.js';
import { runOn } from './test-support/single-writes.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

const INSERT = 'INSERT INTO things (name) VALUES (?)';

/** A file with one table, a writer thread on it, and another connection holding its write lock; all closed after the test. */
function heldFile(busyTimeoutMs: number, begun?: BegunWrites): { path: string; writer: ThreadWriter; holder: DatabaseSync } {
  const path = files.databasePath();
  const holder = new DatabaseSync(path);
  holder.exec('PRAGMA journal_mode = WAL; CREATE TABLE things (name TEXT PRIMARY KEY)');
  const writer = new ThreadWriter({ path, synchronous: 'NORMAL', busyTimeoutMs }, { begun });
  files.closeAfter(writer);
  files.closeAfter({ close: () => { if (holder.isTransaction) holder.exec('ROLLBACK'); holder.close(); } });
  holder.exec('BEGIN IMMEDIATE');
  return { path, writer, holder };
}

/** How a write ended, and when (ms after `since`). */
async function outcome(write: Promise<unknown>, since: number): Promise<{ error: unknown; afterMs: number }> {
  const error = await write.then(() => undefined, (failure: unknown) => failure);
  return { error, afterMs: performance.now() - since };
}

function storedCount(path: string): unknown {
  const reader = new DatabaseSync(path, { readOnly: true });
  try {
    return reader.prepare('SELECT count(*) AS n FROM things').get()?.['n'];
  } finally {
    reader.close();
  }
}

describe('ThreadWriter, when the file does not serve', () => {
  it('gives up writes queued behind a held lock once their busy timeout has passed, each refused as busy', async () => {
    const { writer } = heldFile(300);
    const sent = performance.now();
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, n) => outcome(runOn(writer, INSERT, [`t${String(n)}`]), sent)));
    for (const { error, afterMs } of outcomes) {
      expect(isBusy(error)).toBe(true);
      // After the busy wait, not before (a lower bound: a wait, whatever the machine's speed).
      expect(afterMs).toBeGreaterThanOrEqual(300 - 1);
    }
  });

  it('counts a write\'s busy timeout from its sending, not from its turn: one whose timeout ran out while it was queued is refused without waiting', async () => {
    const { writer } = heldFile(20_000);
    // The sender's clock, set 20 s back: each write is sent with its busy timeout over, as one
    // queued behind others that waited theirs out would reach its turn. Counted from its turn,
    // each would wait its own 20 s, one after another, far past the test.
    vi.useFakeTimers({ toFake: ['Date'] });
    let writes: Promise<{ error: unknown }>[];
    try {
      vi.setSystemTime(Date.now() - 20_000);
      writes = Array.from({ length: 3 }, (_, n) => outcome(runOn(writer, INSERT, [`t${String(n)}`]), 0));
    } finally {
      vi.useRealTimers();
    }
    for (const { error } of await Promise.all(writes)) {
      expect(isBusy(error)).toBe(true);
      expect(error).toMatchObject({ message: expect.stringContaining('no turn to write within 20000 ms') as unknown });
    }
  });

  it('gives up a write of several steps behind a held lock as a whole: none of its steps reaches the file', async () => {
    const { path, writer, holder } = heldFile(300);
    const steps = ['first', 'second'].map((name) => ({ method: 'run' as const, sql: INSERT, params: [name] }));
    const held = await outcome(writer.write(steps), 0);
    expect(isBusy(held.error)).toBe(true);
    holder.exec('ROLLBACK');
    await writer.close();
    expect(storedCount(path)).toBe(0);
  });

  it('with no busy timeout, still tries each write once: it commits on a free file, and fails on a held one', async () => {
    const { path, writer, holder } = heldFile(0);
    const held = await outcome(runOn(writer, INSERT, ['held']), 0);
    expect(isBusy(held.error)).toBe(true);
    holder.exec('ROLLBACK');
    await expect(runOn(writer, INSERT, ['free'])).resolves.toMatchObject({ changes: 1 });
    await writer.close();
    expect(storedCount(path)).toBe(1);
  });

  it('stopWrites refuses at once every write not yet begun, the one waiting for the lock soon after, and none of them reaches the file', async () => {
    const begun = new BegunWrites();
    const { path, writer, holder } = heldFile(20_000, begun);
    const writes = Array.from({ length: 5 }, (_, n) => runOn(writer, INSERT, [`t${String(n)}`]));
    // The stop comes once the thread has begun the first write (it waits for the lock),
    // however long the thread took to start: the time is a safety net, the begun write the condition.
    await vi.waitFor(() => { expect(Atomics.load(begun.cell, 0)).toBeGreaterThanOrEqual(1n); }, { timeout: 10_000, interval: 5 });
    const ends = writes.map((write) => outcome(write, 0));
    writer.stopWrites();
    const settledAtOnce: boolean[] = [];
    for (const end of ends) settledAtOnce.push(await isSettled(end));
    // The first was begun and waits for the lock (with any the thread took in the same group
    // commit): it gives up between two of SQLite's waits, long before its busy timeout of 20 s,
    // which would outlast the test.
    const outcomes = await Promise.all(ends);
    expect(isBusy(outcomes[0]?.error)).toBe(true);
    outcomes.forEach(({ error }, n) => {
      if (n === 0 || isBusy(error)) return;
      // One not begun is refused by the time the event loop next turns (an order, not a time).
      expect({ n, refused: WorkplanError.is(error) && error.kind === 'storageUnavailable', settledAtOnce: settledAtOnce[n] }).toEqual({ n, refused: true, settledAtOnce: true });
    });
    // Free now, the lock would let any write the thread still held commit.
    holder.exec('ROLLBACK');
    await expect(runOn(writer, INSERT, ['after the stop'])).rejects.toSatisfy((error: unknown) => WorkplanError.is(error) && error.kind === 'storageUnavailable');
    await writer.close();
    expect(storedCount(path)).toBe(0);
  }, 20_000);

  it('answers a write committed to a file deleted under it as a fault of the file, never as stored', async () => {
    const { path, writer, holder } = heldFile(2000);
    holder.exec('ROLLBACK');
    await runOn(writer, INSERT, ['kept']);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    const failure = await runOn(writer, INSERT, ['lost with the process']).catch((error: unknown) => error);
    expect(sqliteCodeOf(failure)).toBe(SQLITE_READONLY_DBMOVED);
    expect(isFileFault(failure)).toBe(true);
  });
});
