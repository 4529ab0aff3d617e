import { creationOf, uniquenessKey, workSchedule, WorkplanError } from '@workplan/core';
import { buildRecord } from '@workplan/testing';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FAULT_REPORT_INTERVAL_MS, FileFaults, PROBE_QUIET_MS, type StorageReport } from './file-faults.js';
import { fileMovedError } from './file-identity.js';
import { migrate } from './schema.js';
import { isFileFault } from './sqlite-errors.js';
import { SqliteRecordRepository } from './sqlite-repository.js';
import { sameConnectionWriter } from './sqlite-writer.js';

/** A database whose file may hold no more pages than it has: the next write that needs one fails with SQLITE_FULL, for real. */
function fullDatabase(): DatabaseSync {
  const db = new DatabaseSync(':memory:');
  migrate(db, ':memory:');
  const pages = db.prepare('PRAGMA page_count').get()?.['page_count'];
  db.exec(`PRAGMA max_page_count = ${String(pages)}`);
  return db;
}

async function fillUntilFull(repository: SqliteRecordRepository<'value'>): Promise<unknown> {
  for (let n = 0; n < 1000; n += 1) {
    const text = `${'x'.repeat(180)} ${String(n)}`;
    const failure = await repository.insert(creationOf(workSchedule, buildRecord(workSchedule, { text })), uniquenessKey(text)).then(() => undefined, (error: unknown) => error);
    if (failure !== undefined) return failure;
  }
  throw new Error('the file never filled up');
}

/** A real SQLITE_FULL error of node:sqlite. */
function sqliteFull(): Error {
  const db = fullDatabase();
  try {
    db.exec(`INSERT INTO work_schedules (id, "text", "key", created_at, updated_at) VALUES ('a', '${'x'.repeat(5000)}', 'a', 0, 0)`);
  } catch (error) {
    return error as Error;
  } finally {
    db.close();
  }
  throw new Error('the insert did not fail');
}

describe('a fault of the file', () => {
  it('is storageUnavailable for a repository, not an error of its own: a full file (SQLITE_FULL)', async () => {
    const db = fullDatabase();
    const repository = new SqliteRecordRepository(db, workSchedule);
    const failure = await fillUntilFull(repository);
    expect(WorkplanError.is(failure) && failure.kind).toBe('storageUnavailable');
    expect(isFileFault(WorkplanError.is(failure) ? failure.cause : failure)).toBe(true);
    db.close();
  });

  it.each([
    ['SQLITE_IOERR_WRITE', 778],
    ['SQLITE_IOERR_FSYNC', 1034],
    ['SQLITE_CORRUPT', 11],
    ['SQLITE_NOTADB', 26],
    ['SQLITE_FULL', 13],
    ['SQLITE_READONLY_DBMOVED', 1032],
  ])('is any failure of the file itself, such as %s', (_, errcode) => {
    expect(isFileFault(Object.assign(new Error('failed'), { errcode }))).toBe(true);
  });

  it.each([
    ['a clash (SQLITE_CONSTRAINT_UNIQUE)', 2067],
    ['a held lock (SQLITE_BUSY), an outage of its own', 5],
    ['a bug in a statement (SQLITE_ERROR)', 1],
  ])('is not %s', (_, errcode) => {
    expect(isFileFault(Object.assign(new Error('failed'), { errcode }))).toBe(false);
  });
});

describe('FileFaults', () => {
  let now = 0;
  let reports: StorageReport[] = [];
  const faults = (): FileFaults => new FileFaults('/data/workplan.db', (report) => reports.push(report), () => now);
  beforeEach(() => {
    vi.useFakeTimers();
    now = 0;
    reports = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const advance = (ms: number): void => {
    now += ms;
    vi.advanceTimersByTime(ms);
  };

  it('tells the first failure at once, naming the file, then one line every interval at most with the count, and once when it serves again', () => {
    const file = faults();
    const full = sqliteFull();
    for (let n = 0; n < 100; n += 1) file.noteFailure(WorkplanError.storageUnavailable(full));
    expect(file.isFailing).toBe(true);
    expect(reports).toEqual([
      { level: 'warn', message: expect.stringContaining('/data/workplan.db cannot serve (database or disk is full)') as unknown, cause: full },
    ]);
    advance(FAULT_REPORT_INTERVAL_MS - 1);
    file.noteFailure(full);
    expect(reports).toHaveLength(1);
    advance(1);
    expect(reports[1]).toMatchObject({ level: 'warn', message: expect.stringContaining('100 calls failed since the last report') as unknown });
    file.noteServing();
    expect(file.isFailing).toBe(false);
    expect(reports).toHaveLength(2);
    advance(FAULT_REPORT_INTERVAL_MS);
    expect(reports[2]).toEqual({ level: 'info', message: '/data/workplan.db serves again' });
    expect(reports).toHaveLength(3);
  });

  it('tells at stop a change of state still waiting for its interval: a file that served again just before is said to', () => {
    const file = faults();
    file.noteFailure(sqliteFull());
    advance(1000);
    file.noteServing();
    file.stop();
    expect(reports.map((report) => report.message)).toEqual([expect.stringContaining('cannot serve'), '/data/workplan.db serves again']);
    advance(FAULT_REPORT_INTERVAL_MS);
    expect(reports).toHaveLength(2);
  });

  it('tells a disk that fails and serves by turns once an interval, ending on the state it is in', () => {
    const file = faults();
    const full = sqliteFull();
    for (let n = 0; n < 50; n += 1) {
      file.noteFailure(full);
      file.noteServing();
    }
    file.noteFailure(full);
    expect(reports).toHaveLength(1);
    advance(FAULT_REPORT_INTERVAL_MS);
    expect(reports).toHaveLength(2);
    expect(reports[1]).toMatchObject({ level: 'warn', message: expect.stringContaining('50 calls failed') as unknown });
  });

  it('leaves alone failures that are not the file’s, and tells damage and a file gone from its path as errors', () => {
    const file = faults();
    file.noteFailure(WorkplanError.conflict('someone'));
    file.noteFailure(Object.assign(new Error('database is locked'), { errcode: 5 }));
    expect(file.isFailing).toBe(false);
    file.noteFailure(Object.assign(new Error('database disk image is malformed'), { errcode: 11 }));
    expect(reports.at(-1)?.level).toBe('error');
    advance(FAULT_REPORT_INTERVAL_MS);
    file.noteFailure(fileMovedError({ of: 'file', what: 'deleted or replaced while in use' }));
    expect(file.isMoved).toBe(true);
    expect(reports.at(-1)?.level).toBe('error');
  });

  it('asks for a write to learn whether the file serves again only once no call failed for a while: failing calls say more than a small write', () => {
    const file = faults();
    expect(file.shouldProbe(PROBE_QUIET_MS)).toBe(false);
    file.noteFailure(sqliteFull());
    expect(file.shouldProbe(PROBE_QUIET_MS)).toBe(false);
    advance(PROBE_QUIET_MS - 1);
    file.noteFailure(sqliteFull());
    advance(PROBE_QUIET_MS - 1);
    expect(file.shouldProbe(PROBE_QUIET_MS)).toBe(false);
    advance(1);
    expect(file.shouldProbe(PROBE_QUIET_MS)).toBe(true);
    file.noteServing();
    expect(file.shouldProbe(PROBE_QUIET_MS)).toBe(false);
  });

  it('keeps a damaged file failing: a write that succeeds beside it does not mend it, so it is never told as serving again', () => {
    const file = faults();
    file.noteFailure(Object.assign(new Error('database disk image is malformed'), { errcode: 11 }));
    file.noteServing();
    expect(file.isFailing).toBe(true);
    advance(10 * PROBE_QUIET_MS);
    expect(file.shouldProbe(PROBE_QUIET_MS)).toBe(false);
    expect(reports.map((report) => report.level)).toEqual(['error']);
  });

  it('stays moved until the path names the file again: a later fault or a write that was already running does not hide it', () => {
    const file = faults();
    file.noteFailure(fileMovedError({ of: 'companion', what: '-wal deleted' }));
    file.noteFailure(Object.assign(new Error('disk I/O error'), { errcode: 10 }));
    expect(file.isMoved).toBe(true);
    file.noteServing();
    expect(file.isMoved).toBe(true);
    advance(10 * PROBE_QUIET_MS);
    expect(file.shouldProbe(PROBE_QUIET_MS)).toBe(false);
    file.noteFileBack();
    expect(file.isMoved).toBe(false);
    expect(file.isFailing).toBe(false);
  });

  it('refuses every write and read while the path names another file, without running it', async () => {
    const file = faults();
    const db = new DatabaseSync(':memory:');
    migrate(db, ':memory:');
    const writer = file.watchWrites(sameConnectionWriter(db));
    const repository = file.watchReads(new SqliteRecordRepository(db, workSchedule, { writer }));
    const record = buildRecord(workSchedule, { text: 'kept' });
    await repository.insert(creationOf(workSchedule, record), 'kept');
    file.noteFailure(fileMovedError({ of: 'file', what: 'deleted or replaced while in use' }));
    const unavailable = (error: unknown): boolean => WorkplanError.is(error) && error.kind === 'storageUnavailable';
    await expect(repository.insert(creationOf(workSchedule, buildRecord(workSchedule, { text: 'refused' })), 'refused')).rejects.toSatisfy(unavailable);
    await expect(repository.findById(record.id)).rejects.toSatisfy(unavailable);
    await expect(repository.list({ skip: 0, limit: 10 })).rejects.toSatisfy(unavailable);
    expect(db.prepare('SELECT count(*) AS n FROM work_schedules').get()).toEqual({ n: 1 });
    db.close();
  });
});
