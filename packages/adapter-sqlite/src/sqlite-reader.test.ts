import { creationOf, CREATION_ORDER, workSchedule, WorkplanError, type RecordQuery } from '@workplan/core';
import { buildRecord } from '@workplan/testing';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  import { workerData } from 'node:worker_threads';
  const { port } = workerData;
  let runs = 0;
  port.on('message', (message) => {
    if (message === 'close') return port.close();
    runs += 1;
    const until = Date.now() + 100;
    while (Date.now() < until);
    port.postMessage({ id: message.id, rows: [[runs]] });
  });`;

const QUITTING_THREAD = "import { workerData } from 'node:worker_threads';\nworkerData.port.once('message', () => process.exit(1));\n";

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

/** The nice value of each thread of this process, by thread id (Linux: field 19 of /proc/self/task/TID/stat). */
function threadNiceValues(): Map<string, number> {
  const nice = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      // The fields after the command name, which is in parentheses and may hold spaces.
      const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      nice.set(tid, Number(fields[16]));
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return nice;
}

describe('the reader thread', () => {
  // On Linux only: there a thread's nice value is its own; elsewhere the thread leaves it be.
  it.runIf(process.platform === 'linux')('runs at the lowest priority, so its long reads yield the core to the event loop, which keeps its own', async () => {
    const before = threadNiceValues();
    const path = files.databasePath();
    const db = new DatabaseSync(path);
    migrate(db, path);
    db.close();
    const reader = new ThreadReader({ path, busyTimeoutMs: 2000 });
    files.closeAfter(reader);
    await reader.query('work_schedules', QUERY); // answered: the thread has run its module
    const started = [...threadNiceValues()].filter(([tid]) => !before.has(tid));
    expect(started.filter(([, nice]) => nice === 19)).toHaveLength(1);
    expect(threadNiceValues().get(String(process.pid))).toBe(before.get(String(process.pid)));
    expect(before.get(String(process.pid))).not.toBe(19);
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
