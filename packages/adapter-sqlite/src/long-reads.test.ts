import { creationOf, CREATION_ORDER, foldText, uniquenessKey, workSchedule, WorkplanError, type AbortSignalLike, type RecordQuery } from '@workplan/core';
import { buildRecord, isSettled, testId } from '@workplan/testing';
import { renameSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { migrate } from './schema.js';
import { sameConnectionReader, type SqliteReader } from './sqlite-reader.js';
import { SqliteRecordRepository } from './sqlite-repository.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

const unavailable = (error: unknown): boolean => WorkplanError.is(error) && error.kind === 'storageUnavailable';

/** A reader that runs each read on the connection, and notes the queries it was given. */
function notingReader(db: DatabaseSync): { reader: SqliteReader; noted: RecordQuery[] } {
  const onConnection = sameConnectionReader(db);
  const noted: RecordQuery[] = [];
  const reader: SqliteReader = {
    query: (table: string, query: RecordQuery, signal?: AbortSignalLike) => {
      noted.push(query);
      return onConnection.query(table, query, signal);
    },
    close: () => onConnection.close(),
    isWorking: () => onConnection.isWorking(),
  };
  return { reader, noted };
}

/** Stores `count` records in the file at once, through a connection of the test's own. */
function storeMany(path: string, count: number): void {
  const db = new DatabaseSync(path);
  try {
    const insert = db.prepare('INSERT INTO work_schedules (id, "text", "key", created_at, updated_at, folded) VALUES (?, ?, ?, ?, ?, ?)');
    db.exec('BEGIN');
    for (let n = 0; n < count; n += 1) {
      const text = `Escala ${String(n)} diurna`;
      insert.run(testId(), text, uniquenessKey(text), n, n, foldText(text));
    }
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}

describe('the reads a repository sends to its reader', () => {
  it('are the searches and the pages past the first thousand records; finds, counts, shallower pages and cursors stay on the connection', async () => {
    const db = new DatabaseSync(':memory:');
    files.closeAfter(db);
    migrate(db, ':memory:');
    const { reader, noted } = notingReader(db);
    const repository = new SqliteRecordRepository(db, workSchedule, { reader });
    const record = buildRecord(workSchedule, { text: 'Noturno' });
    await repository.insert(creationOf(workSchedule, record), 'noturno');

    await repository.findById(record.id);
    await repository.count();
    await repository.list({ skip: 1000, limit: 1000 });
    const after = { value: 0, id: record.id };
    const byText = { field: 'text', descending: true } as const;
    await repository.query({ order: byText, after, skip: 1000, limit: 1000, count: true });
    expect(noted).toEqual([]);

    await repository.list({ skip: 1001, limit: 1 });
    await repository.query({ order: byText, after, skip: 1001, limit: 1, count: false });
    await repository.query({ search: 'noturno', order: CREATION_ORDER, skip: 0, limit: 1, count: true });
    expect(noted).toEqual([
      { order: CREATION_ORDER, skip: 1001, limit: 1, count: false },
      { order: byText, after, skip: 1001, limit: 1, count: false },
      { search: 'noturno', order: CREATION_ORDER, skip: 0, limit: 1, count: true },
    ]);
  });
});

describe('a storage on a file', () => {
  it('runs long reads beside the event loop: sixteen searches and deep pages at once leave it turning', async () => {
    const path = files.databasePath();
    files.open({ path });
    storeMany(path, 50_000);
    const repository = files.open({ path }).repositories.workSchedules;
    const search = (): Promise<unknown> => repository.query({ search: 'noturna', order: CREATION_ORDER, skip: 0, limit: 100, count: true });
    const deepPage = (n: number): Promise<unknown> => repository.list({ skip: 40_000 + n, limit: 100 });
    await search();
    // On the event loop, these would hold it for their sum, each walking most of the records,
    // and be done before it next turned: they are still on their way once it has (an order, not a time).
    const reads = Promise.all(Array.from({ length: 16 }, (_, n) => (n % 2 === 0 ? search() : deepPage(n))));
    expect(await isSettled(reads)).toBe(false);
    await reads;
    await expect(repository.query({ search: 'escala 49999', order: CREATION_ORDER, skip: 0, limit: 10, count: true })).resolves.toMatchObject({ total: 1 });
  }, 30_000);

  it('answers a long read of a file gone from its path as an outage, and serves long reads again once it is back', async () => {
    const path = files.databasePath();
    const storage = files.open({ path });
    const repository = storage.repositories.workSchedules;
    await repository.insert(creationOf(workSchedule, buildRecord(workSchedule, { text: 'Noturno' })), 'noturno');
    // Before any long read: the reader thread has not opened the file yet.
    for (const suffix of ['', '-wal', '-shm']) renameSync(`${path}${suffix}`, `${path}${suffix}.away`);
    const search: RecordQuery = { search: 'noturno', order: CREATION_ORDER, skip: 0, limit: 10, count: true };
    await expect(repository.query(search)).rejects.toSatisfy(unavailable);
    await expect(repository.list({ skip: 5000, limit: 10 })).rejects.toSatisfy(unavailable);

    for (const suffix of ['', '-wal', '-shm']) renameSync(`${path}${suffix}.away`, `${path}${suffix}`);
    const deadline = Date.now() + 3000;
    while (!(await storage.isReady()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(repository.query(search)).resolves.toMatchObject({ total: 1 });
  });
});
