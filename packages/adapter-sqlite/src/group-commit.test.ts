import { creationOf, sequenceOf, uniquenessKey, workSchedule, WorkplanError } from '@workplan/core';
import { buildRecord } from '@workplan/testing';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { BegunWrites } from './begun-writes.js';
import { MOST_WRITES_A_COMMIT } from './group-commit.js';
import { ThreadWriter } from './sqlite-writer.js';
import { type WriteStep } from './write-statements.js';
import { commitsInWal } from './test-support/wal-commits.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

// `n` numbers the rows as the changes table numbers changes; `owned` checks its owner only
// at COMMIT; a thing named so rolls back the whole transaction, as a full disk does.
const SCHEMA = `
  PRAGMA journal_mode = WAL;
  CREATE TABLE things (n INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, size INTEGER NOT NULL DEFAULT 0);
  CREATE TABLE owners (name TEXT PRIMARY KEY);
  CREATE TABLE owned (name TEXT PRIMARY KEY, owner TEXT NOT NULL REFERENCES owners (name) DEFERRABLE INITIALLY DEFERRED);
  CREATE TRIGGER rolls_back BEFORE INSERT ON things WHEN NEW.name = 'rolls back' BEGIN SELECT RAISE(ROLLBACK, 'the whole transaction rolled back'); END;`;

const insert = (name: string): WriteStep => ({ method: 'run', sql: 'INSERT INTO things (name) VALUES (?)', params: [name] });
const grow = (name: string): WriteStep => ({ method: 'get', sql: 'UPDATE things SET size = size + 1 WHERE name = ? RETURNING size', params: [name] });
// A statement that keeps the thread busy for a second or so, inside its write.
const slowInsert = (name: string): WriteStep => ({
  method: 'run',
  sql: 'INSERT INTO things (name, size) SELECT ?, max(x) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 8000000) SELECT x FROM c)',
  params: [name],
});
const one = { changes: 1, row: undefined };

/**
 * A file with the tables above and an empty WAL, a writer thread on it, and another
 * connection holding the write lock until `release`: writes sent before then are all
 * queued for the thread when it can begin, as under load.
 */
async function queuedBehindLock(begun?: BegunWrites): Promise<{ path: string; writer: ThreadWriter; release: () => void }> {
  const path = files.databasePath();
  const holder = new DatabaseSync(path);
  holder.exec(SCHEMA);
  holder.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const writer = new ThreadWriter({ path, synchronous: 'NORMAL', busyTimeoutMs: 10_000 }, { begun });
  files.closeAfter(writer);
  // Answered once the thread is up; changing nothing, it commits nothing to the WAL.
  await writer.write([{ method: 'run', sql: 'DELETE FROM owners WHERE 0', params: [] }]);
  files.closeAfter({ close: () => { if (holder.isTransaction) holder.exec('ROLLBACK'); holder.close(); } });
  holder.exec('BEGIN IMMEDIATE');
  return { path, writer, release: () => { holder.exec('ROLLBACK'); } };
}

function rowsOf(path: string, sql: string): unknown[] {
  const reader = new DatabaseSync(path, { readOnly: true });
  try {
    return reader.prepare(sql).all().map((row) => Object.values(row));
  } finally {
    reader.close();
  }
}

const thingsOf = (path: string): unknown[] => rowsOf(path, 'SELECT n, name, size FROM things ORDER BY n');

/** That the WAL holds one commit (counted in the file itself: one a write would be a commit frame each), which left `things` as `rows`. */
function expectOneCommitLeaving(path: string, rows: unknown[][]): void {
  expect(commitsInWal(path)).toBe(1);
  expect(thingsOf(path)).toEqual(rows);
}

async function failureOf(write: Promise<unknown>): Promise<unknown> {
  return write.then(() => undefined, (error: unknown) => error);
}

describe('ThreadWriter, with writes queued', () => {
  it('commits the writes queued for its thread together, at most MOST_WRITES_A_COMMIT in one commit', async () => {
    const { path, writer, release } = await queuedBehindLock();
    const names = Array.from({ length: 2 * MOST_WRITES_A_COMMIT + 1 }, (_, n) => `t${String(n)}`);
    const writes = names.map((name) => writer.write([insert(name)]));
    await delay(50);
    release();
    expect(await Promise.all(writes)).toEqual(names.map(() => [one]));
    expect(commitsInWal(path)).toBe(3);
    expect(thingsOf(path)).toEqual(names.map((name, n) => [n + 1, name, 0]));
  });

  it('refuses a failing write of a batch with its own error, none of its steps stored, and commits the others', async () => {
    const { path, writer, release } = await queuedBehindLock();
    const names = Array.from({ length: 10 }, (_, n) => `t${String(n)}`);
    // The fifth write's first step succeeds, its second clashes with the second write's name.
    const writes = names.map((name, n) => writer.write(n === 4 ? [insert('before the clash'), insert('t1')] : [insert(name)]));
    release();
    const failures = await Promise.all(writes.map(failureOf));
    expect(failures[4]).toMatchObject({ code: 'ERR_SQLITE_ERROR', errcode: 2067 }); // SQLITE_CONSTRAINT_UNIQUE
    expect(failures.filter((failure) => failure !== undefined)).toHaveLength(1);
    // Its number went back with it: the others' are contiguous, as the changes' must be.
    expectOneCommitLeaving(path, names.filter((_, n) => n !== 4).map((name, n) => [n + 1, name, 0]));
  });

  it('runs the writes of a batch in the order sent, each seeing the ones before and its steps each only after a changed row', async () => {
    const { path, writer, release } = await queuedBehindLock();
    const writes = [
      writer.write([insert('a')]),
      writer.write([grow('a'), insert('after a grew')]),
      writer.write([grow('never inserted'), insert('after nothing grew')]),
      writer.write([grow('a')]),
    ];
    release();
    expect(await Promise.all(writes)).toEqual([[one], [{ changes: 0, row: [1] }, one], [{ changes: 0, row: undefined }], [{ changes: 0, row: [2] }]]);
    expectOneCommitLeaving(path, [
      [1, 'a', 2],
      [2, 'after a grew', 0],
    ]);
  });

  it('acknowledges none of the writes of a batch whose commit fails, and stores none of them', async () => {
    const { path, writer, release } = await queuedBehindLock();
    const owners = Array.from({ length: 5 }, (_, n) => writer.write([{ method: 'run', sql: 'INSERT INTO owners (name) VALUES (?)', params: [`o${String(n)}`] }]));
    const orphan = writer.write([{ method: 'run', sql: 'INSERT INTO owned (name, owner) VALUES (?, ?)', params: ['orphan', 'nobody'] }]);
    release();
    for (const write of [...owners, orphan]) await expect(write).rejects.toMatchObject({ errcode: 787 }); // SQLITE_CONSTRAINT_FOREIGNKEY, at COMMIT
    expect(rowsOf(path, 'SELECT name FROM owners')).toEqual([]);
    // The thread goes on: the failed transaction was rolled back.
    await expect(writer.write([{ method: 'run', sql: 'INSERT INTO owners (name) VALUES (?)', params: ['after'] }])).resolves.toEqual([one]);
    expect(rowsOf(path, 'SELECT name FROM owners')).toEqual([['after']]);
  });

  it('fails every write of a batch before one whose failure rolled the whole transaction back (as a full disk does), and takes those after into a batch of their own', async () => {
    const { path, writer, release } = await queuedBehindLock();
    const writes = ['a', 'b', 'rolls back', 'c', 'd'].map((name) => writer.write([insert(name)]));
    release();
    const failures = await Promise.all(writes.map(failureOf));
    for (const failure of failures.slice(0, 3)) expect(failure).toMatchObject({ message: expect.stringContaining('the whole transaction rolled back') as unknown });
    expect(failures.slice(3)).toEqual([undefined, undefined]);
    expectOneCommitLeaving(path, [
      [1, 'c', 0],
      [2, 'd', 0],
    ]);
  });

  it('stopWrites during a batch: the writes taken into it commit and are answered after its commit, the rest are refused at once and never stored', async () => {
    const begun = new BegunWrites();
    const { path, writer, release } = await queuedBehindLock(begun);
    const first = writer.write([insert('first')]);
    const slow = writer.write([slowInsert('slow')]);
    const later = Array.from({ length: 4 }, (_, n) => writer.write([insert(`later ${String(n)}`)]));
    let firstAnswered = false;
    void first.then(() => (firstAnswered = true));
    release();
    // The thread has the lock, has run `first` and is running `slow` (the third write, after
    // the setup's), in one transaction: waited for, however slow the machine, not a pause.
    await vi.waitFor(() => { expect(Atomics.load(begun.cell, 0)).toBe(3n); }, { timeout: 10_000, interval: 5 });
    writer.stopWrites();
    // `first` is committed only with `slow`, and answered only then.
    expect(firstAnswered).toBe(false);
    for (const write of later) await expect(write).rejects.toSatisfy((error: unknown) => WorkplanError.is(error) && error.kind === 'storageUnavailable');
    expect(firstAnswered).toBe(false);
    await expect(Promise.all([first, slow])).resolves.toEqual([[one], [one]]);
    expect(commitsInWal(path)).toBe(1);
    expect(rowsOf(path, 'SELECT name FROM things ORDER BY n')).toEqual([['first'], ['slow']]);
  });
});

describe('a storage on a file, with writes queued', () => {
  it('commits many concurrent writes together, refusing the one that clashes as a conflict naming the holder, its change not kept', async () => {
    const path = files.databasePath();
    const storage = files.open({ path });
    const schemaCommits = commitsInWal(path);
    const holder = new DatabaseSync(path);
    files.closeAfter(holder);
    holder.exec('BEGIN IMMEDIATE');
    const records = Array.from({ length: 30 }, (_, n) => buildRecord(workSchedule, { text: `Escala ${String(n)}` }));
    const clash = buildRecord(workSchedule, { text: 'escala  7' });
    const insertOf = (record: typeof clash): Promise<unknown> => storage.repositories.workSchedules.insert(creationOf(workSchedule, record), uniquenessKey(record.value));
    const writes = records.slice(0, 15).map(insertOf);
    const clashing = insertOf(clash);
    writes.push(...records.slice(15).map(insertOf));
    holder.exec('ROLLBACK');
    await expect(clashing).rejects.toMatchObject({ kind: 'conflict', existingId: records[7]?.id });
    await Promise.all(writes);
    // One commit for the 31 writes, besides the schema's.
    expect(commitsInWal(path)).toBeLessThanOrEqual(schemaCommits + 1);
    const changes = await storage.changes.read(0, 100);
    expect(changes.map((change) => [sequenceOf(change.id), change.recordId])).toEqual(records.map((record, n) => [n + 1, record.id]));
    await expect(storage.repositories.workSchedules.findById(clash.id)).resolves.toBeUndefined();
  });
});
