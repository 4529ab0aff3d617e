import { creationOf, CREATION_ORDER, workSchedule, WorkplanError, type RecordQuery } from '@workplan/core';
import { buildRecord } from '@workplan/testing';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrate } from './schema.js';
import { ThreadReader } from './sqlite-reader.js';
import { SqliteRecordRepository } from './sqlite-repository.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

const unavailable = (error: unknown): boolean => WorkplanError.is(error) && error.kind === 'storageUnavailable';
const QUERY: RecordQuery = { search: 'noturno', order: CREATION_ORDER, skip: 0, limit: 10, count: false };

/** A reader whose thread runs `source` (an ES module) in place of the read thread, closed after the test. */
function readerRunning(source: string): ThreadReader {
  const script = join(files.folder(), 'thread.mjs');
  writeFileSync(script, source);
  const reader = new ThreadReader({ path: files.databasePath(), busyTimeoutMs: 2000 }, { script: pathToFileURL(script) });
  files.closeAfter(reader);
  return reader;
}

// Answers each read after 100 ms with the number of reads it has run, as a row.
const SLOW_THREAD = `
  import { parentPort } from 'node:worker_threads';
  let runs = 0;
  parentPort.on('message', (message) => {
    if (message === 'close') return parentPort.close();
    runs += 1;
    const until = Date.now() + 100;
    while (Date.now() < until);
    parentPort.postMessage({ id: message.id, rows: [[runs]] });
  });`;

const QUITTING_THREAD = "import { parentPort } from 'node:worker_threads';\nparentPort.once('message', () => process.exit(1));\n";

describe('ThreadReader', () => {
  it('runs one read at a time, and drops a read called off while it waits: the thread never runs it', async () => {
    const reader = readerRunning(SLOW_THREAD);
    const callOff = new AbortController();
    const reads = [reader.query('t', QUERY), reader.query('t', QUERY, callOff.signal), reader.query('t', QUERY)];
    callOff.abort(new Error('answered by its deadline'));
    await expect(reads[1]).rejects.toThrow('answered by its deadline');
    await expect(reads[0]).resolves.toEqual({ rows: [[1]], total: undefined });
    await expect(reads[2]).resolves.toEqual({ rows: [[2]], total: undefined });
  });

  it('answers the reads sent before close, and refuses those after', async () => {
    const reader = readerRunning(SLOW_THREAD);
    const before = [reader.query('t', QUERY), reader.query('t', QUERY)];
    await reader.close();
    await expect(Promise.all(before)).resolves.toHaveLength(2);
    await expect(reader.query('t', QUERY)).rejects.toThrow('the storage is closed');
    expect(reader.isWorking()).toBe(false);
  });

  it('makes an outage of a thread that cannot start', async () => {
    const reader = readerRunning("throw new Error('the thread failed as it loaded');\n");
    await expect(reader.query('t', QUERY)).rejects.toSatisfy(unavailable);
    expect(reader.isWorking()).toBe(false);
  });

  it('makes an outage of a thread that ends: the read it ran, those waiting, and every one after', async () => {
    const reader = readerRunning(QUITTING_THREAD);
    const reads = [reader.query('t', QUERY), reader.query('t', QUERY)];
    for (const read of reads) await expect(read).rejects.toSatisfy(unavailable);
    await expect(reader.query('t', QUERY)).rejects.toSatisfy(unavailable);
    expect(reader.isWorking()).toBe(false);
  });

  it("rejects with node:sqlite's own codes, so a fault of the file is told from other failures", async () => {
    const reader = new ThreadReader({ path: join(files.folder(), 'missing', 'workplan.db'), busyTimeoutMs: 2000 });
    files.closeAfter(reader);
    await expect(reader.query('work_schedules', QUERY)).rejects.toMatchObject({ code: 'ERR_SQLITE_ERROR', errcode: 14 }); // SQLITE_CANTOPEN
    expect(reader.isWorking()).toBe(true);
  });
});

describe('a repository whose reader thread ended', () => {
  it('answers its long reads as an outage, as any read of a storage that cannot serve, and its other reads as before', async () => {
    const db = new DatabaseSync(':memory:');
    files.closeAfter(db);
    migrate(db, ':memory:');
    const repository = new SqliteRecordRepository(db, workSchedule, { reader: readerRunning(QUITTING_THREAD) });
    const record = buildRecord(workSchedule, { text: 'Noturno' });
    await repository.insert(creationOf(workSchedule, record), 'noturno');
    await expect(repository.query(QUERY)).rejects.toSatisfy(unavailable);
    await expect(repository.list({ skip: 2000, limit: 10 })).rejects.toSatisfy(unavailable);
    await expect(repository.findById(record.id)).resolves.toEqual(record);
    await expect(repository.query({ ...QUERY, search: undefined })).resolves.toEqual({ records: [record], total: undefined });
  });
});
