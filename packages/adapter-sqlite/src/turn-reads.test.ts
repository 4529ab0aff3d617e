import { createWorkplan, uniquenessKey, workSchedule } from '@workplan/core';
import { buildRecord } from '@workplan/testing';
import { DatabaseSync, StatementSync } from 'node:sqlite';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SqliteRecordRepository } from './sqlite-repository.js';
import { type SqliteStorage } from './sqlite-storage.js';
import { ThreadWriter } from './sqlite-writer.js';
import { readInTurn, shareReadsPerTurn, turnTransactionOf } from './turn-reads.js';
import { holdThread } from './test-support/hold-thread.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

/** A storage on a new file, and a plain connection to the file that commits behind its back. */
function storageAndOther(shareReadsPerTurn = true): { storage: SqliteStorage; other: DatabaseSync } {
  const path = files.databasePath();
  const storage = files.open({ path, shareReadsPerTurn });
  const other = new DatabaseSync(path);
  files.closeAfter(other);
  return { storage, other };
}

/** Commits a work schedule on `db`, synchronously, and answers its id. */
function commitOn(db: DatabaseSync, text: string): string {
  const record = buildRecord(workSchedule, { text });
  db.prepare('INSERT INTO work_schedules (id, "text", "key", created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(
    record.id,
    text,
    uniquenessKey(text),
    record.createdAt.getTime(),
    record.updatedAt.getTime(),
  );
  return record.id;
}


/** Tells whether the turn it was made in has ended (an immediate callback ran since). */
function turnWatch(): { ended: () => boolean } {
  let ended = false;
  setImmediate(() => {
    ended = true;
  });
  return { ended: () => ended };
}

/**
 * From now on each write sent to a write thread holds this thread until the write is
 * answered, so the answer is taken in the same turn (Node takes a port's messages until
 * none is left); counts the writes sent.
 */
function writesHeld(): () => number {
  type Send = (this: ThreadWriter, ...args: Parameters<ThreadWriter['run']>) => ReturnType<ThreadWriter['run']>;
  const send: Send = Reflect.get(ThreadWriter.prototype, 'run');
  const sendAndGet: Send = Reflect.get(ThreadWriter.prototype, 'get');
  const held = (write: Send) =>
    function (this: ThreadWriter, ...args: Parameters<Send>) {
      const answer = write.apply(this, args);
      holdThread(100);
      return answer;
    };
  const runs = vi.spyOn(ThreadWriter.prototype, 'run').mockImplementation(held(send));
  const gets = vi.spyOn(ThreadWriter.prototype, 'get').mockImplementation(held(sendAndGet));
  return () => runs.mock.calls.length + gets.mock.calls.length;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('reads of a storage on a file, within one turn of the event loop', () => {
  it('share one snapshot: a commit made during the turn is seen from the next turn on', async () => {
    const { storage, other } = storageAndOther();
    const schedules = storage.repositories.workSchedules;
    const id = commitOn(other, '12x36');
    await nextTurn();
    // Begins the turn's read transaction; the commit below comes after its snapshot.
    expect(await schedules.findById(id)).toMatchObject({ value: '12x36' });
    const later = commitOn(other, '6x1');
    expect(await schedules.findById(later)).toBeUndefined();
    expect((await schedules.list({ skip: 0, limit: 10 })).map((record) => record.value)).toEqual(['12x36']);
    await nextTurn();
    expect(await schedules.findById(later)).toMatchObject({ value: '6x1' });
    expect((await schedules.list({ skip: 0, limit: 10 })).map((record) => record.value)).toEqual(['12x36', '6x1']);
  });

  it('see a write of this thread as soon as it is answered, with every commit made before it', async () => {
    const { storage, other } = storageAndOther();
    const schedules = storage.repositories.workSchedules;
    const first = buildRecord(workSchedule, { text: '12x36' });
    await schedules.insert(first, uniquenessKey('12x36'));
    // Now in the turn that took the write thread's answer: a read begins the snapshot...
    expect(await schedules.findById(first.id)).toBeDefined();
    // ...another connection commits after it...
    const behind = commitOn(other, '6x1');
    // ...and a write answered in this same turn (the thread answers while the turn is held,
    // and the answer is taken with the one before) makes the reads after it start anew.
    const second = buildRecord(workSchedule, { text: '5x2' });
    const written = schedules.insert(second, uniquenessKey('5x2'));
    const turn = turnWatch();
    holdThread(200);
    await written;
    expect(turn.ended()).toBe(false);
    expect(await schedules.findById(second.id)).toMatchObject({ value: '5x2' });
    expect(await schedules.findById(behind)).toMatchObject({ value: '6x1' });
  });

  it('name the holder of a key that another connection committed during the turn', async () => {
    const { storage, other } = storageAndOther();
    const schedules = storage.repositories.workSchedules;
    await schedules.insert(buildRecord(workSchedule, { text: '6x1' }), uniquenessKey('6x1'));
    expect(await schedules.list({ skip: 0, limit: 10 })).toHaveLength(1);
    const holder = commitOn(other, '12x36');
    const attempts = writesHeld();
    const turn = turnWatch();
    await expect(schedules.insert(buildRecord(workSchedule, { text: '12x36' }), uniquenessKey('12x36'))).rejects.toMatchObject({
      kind: 'conflict',
      existingId: holder,
    });
    expect(turn.ended()).toBe(false);
    expect(attempts()).toBe(1);
  });

  it('let an update of a record another connection changed during the turn read it again and win', async () => {
    const { storage, other } = storageAndOther();
    const schedules = createWorkplan({ ...storage.repositories }).workSchedules;
    const made = await schedules.create({ value: '12x36' });
    expect(await schedules.find(made.id)).toMatchObject({ value: '12x36' });
    other.prepare('UPDATE work_schedules SET "text" = ?, "key" = ?, updated_at = ? WHERE id = ?').run('6x1', uniquenessKey('6x1'), made.updatedAt.getTime() + 5, made.id);
    const attempts = writesHeld();
    const turn = turnWatch();
    const updated = await schedules.update(made.id, { value: '5x2' });
    expect(turn.ended()).toBe(false);
    // The first write missed the record it read (the other connection had moved it on)...
    expect(attempts()).toBe(2);
    // ...and the second, after a read that saw that commit, replaced it.
    expect(updated.value).toBe('5x2');
    expect(updated.updatedAt.getTime()).toBeGreaterThan(made.updatedAt.getTime() + 5);
  });

  it('let the storage close with the turn\'s transaction open', async () => {
    const { storage } = storageAndOther();
    expect(await storage.repositories.workSchedules.list({ skip: 0, limit: 10 })).toEqual([]);
    await storage.close();
    await nextTurn();
    await expect(storage.repositories.workSchedules.list({ skip: 0, limit: 10 })).rejects.toThrow();
  });
});

describe('a page listed by a storage on a file', () => {
  it('is served again from memory in a later turn while nothing was committed', async () => {
    const { storage, other } = storageAndOther();
    commitOn(other, '12x36');
    const schedules = storage.repositories.workSchedules;
    const queries = vi.spyOn(StatementSync.prototype, 'all');
    try {
      expect((await schedules.list({ skip: 0, limit: 10 })).map((record) => record.value)).toEqual(['12x36']);
      await nextTurn();
      expect((await schedules.list({ skip: 0, limit: 10 })).map((record) => record.value)).toEqual(['12x36']);
      expect(queries).toHaveBeenCalledTimes(1);
    } finally {
      queries.mockRestore();
    }
  });
});

describe('reads of a storage whose write thread is emptying the WAL', () => {
  it('each stand alone meanwhile, holding no snapshot past the read', async () => {
    vi.spyOn(ThreadWriter.prototype, 'isEmptyingWal').mockReturnValue(true);
    const { storage, other } = storageAndOther();
    const schedules = storage.repositories.workSchedules;
    await nextTurn();
    expect(await schedules.findById(commitOn(other, '12x36'))).toMatchObject({ value: '12x36' });
    expect(await schedules.findById(commitOn(other, '6x1'))).toMatchObject({ value: '6x1' });
  });
});

describe('reads of a storage opened without shareReadsPerTurn', () => {
  it('each stand alone: a commit made during the turn is seen at once', async () => {
    const { storage, other } = storageAndOther(false);
    const schedules = storage.repositories.workSchedules;
    const id = commitOn(other, '12x36');
    expect(await schedules.findById(id)).toMatchObject({ value: '12x36' });
    const later = commitOn(other, '6x1');
    expect(await schedules.findById(later)).toMatchObject({ value: '6x1' });
    other.prepare('DELETE FROM work_schedules WHERE id = ?').run(id);
    expect(await schedules.findById(id)).toBeUndefined();
  });
});

describe('reads on a connection the caller owns', () => {
  it('each stand alone, so the caller can begin a transaction of its own between them', async () => {
    const path = files.databasePath();
    files.open({ path }); // makes the schema
    const db = new DatabaseSync(path);
    files.closeAfter(db);
    const repository = new SqliteRecordRepository(db, workSchedule);
    expect(await repository.findById('01936f0e-0000-7000-8000-000000000000')).toBeUndefined();
    expect(db.isTransaction).toBe(false);
    db.exec('BEGIN');
    db.exec('ROLLBACK');
  });
});

describe('the turn\'s transaction of a connection', () => {
  it('is not begun while its owner holds off (the write thread empties the WAL)', () => {
    const db = new DatabaseSync(':memory:');
    files.closeAfter(db);
    let holdOff = true;
    shareReadsPerTurn(db, () => holdOff);
    readInTurn(db, () => db.prepare('SELECT 1').get());
    expect(db.isTransaction).toBe(false);
    holdOff = false;
    readInTurn(db, () => db.prepare('SELECT 1').get());
    expect(db.isTransaction).toBe(true);
  });

  it('begins again after a read failed, which SQLite may have rolled it back for (an I/O error, memory full)', () => {
    const db = new DatabaseSync(':memory:');
    files.closeAfter(db);
    shareReadsPerTurn(db);
    const read = () => readInTurn(db, () => db.prepare('SELECT 1').get());
    read();
    const first = turnTransactionOf(db);
    expect(() =>
      readInTurn(db, () => {
        db.exec('ROLLBACK'); // what SQLite does on such an error
        throw new Error('disk I/O error');
      }),
    ).toThrow('disk I/O error');
    read();
    expect(db.isTransaction).toBe(true);
    expect(turnTransactionOf(db)).not.toBe(first);
  });
});
