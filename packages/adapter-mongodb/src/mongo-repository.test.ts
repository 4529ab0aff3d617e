import { creationOf, deletionOf, updateOf, workSchedule, WorkplanError, uniquenessKey } from '@workplan/core';
import { buildRecord, isSettled } from '@workplan/testing';
import { MongoServerError, UUID, type Collection, type Document } from 'mongodb';
import { describe, expect, it, vi } from 'vitest';
import { ChangeProtocol } from './change-protocol.js';
import { MongoRecordRepository } from './mongo-repository.js';
import { type RecordDocument } from './record-document.js';
import { type ClaimDocument } from './write-claims.js';

/**
 * A collection where every insert clashes on `key` and the holder is gone when looked up,
 * `vanishings` times, then found: what create/delete churn on one value looks like.
 */
function churningCollection(vanishings: number, holder: string): Collection<RecordDocument> {
  let lookups = 0;
  const clash = () => new MongoServerError({ code: 11000, errmsg: 'E11000 duplicate key error collection: key_unique' });
  const fake = {
    insertOne: () => Promise.reject(clash()),
    findOne: () => {
      lookups += 1;
      return Promise.resolve(lookups > vanishings ? { _id: new UUID(holder) } : null);
    },
  };
  return fake as unknown as Collection<RecordDocument>;
}

// Inserts never reach a conditional write here, so the claims collection is never used.
const claims = undefined as unknown as Collection<ClaimDocument>;

/** A collection that takes every insert and holds nothing: a change log with no other writer. */
function acceptingCollection<T extends Document>(): Collection<T> {
  const cursor = { sort: () => cursor, limit: () => cursor, toArray: () => Promise.resolve([]) };
  const fake = { insertOne: () => Promise.resolve({}), find: () => cursor, findOne: () => Promise.resolve(null) };
  return fake as unknown as Collection<T>;
}

/** The change protocol over `collection()`'s collections. */
function protocolOver(collection: () => Collection): ChangeProtocol {
  return new ChangeProtocol({
    collections: { changes: collection(), outcomes: collection(), deletions: collection(), pruned: collection() } as never,
    records: () => collection() as unknown as Collection<RecordDocument>,
    leaseMs: 30_000,
    timeoutMS: 2000,
    onCommit: () => undefined,
  });
}

describe('MongoRecordRepository under create/delete churn', () => {
  it('hostile 1: a create that keeps losing to a holder deleted before the look-up ends as a conflict, never the raw driver error', async () => {
    const holder = '0190a000-0000-7000-8000-0000000000aa';
    const protocol = protocolOver(acceptingCollection);
    const repository = new MongoRecordRepository({ kind: workSchedule, collection: churningCollection(20, holder), claims, protocol });
    const record = buildRecord(workSchedule, { text: '12x36' });
    await expect(repository.insert(creationOf(workSchedule, record), uniquenessKey('12x36'))).rejects.toSatisfy(
      (error: unknown) => WorkplanError.is(error) && error.kind === 'conflict' && error.existingId === holder,
    );
  });

  it('hostile 1: a race that never settles is an outage to the caller, not an internal error', async () => {
    const protocol = protocolOver(acceptingCollection);
    const repository = new MongoRecordRepository({ kind: workSchedule, collection: churningCollection(Infinity, ''), claims, protocol });
    const record = buildRecord(workSchedule, { text: '12x36' });
    await expect(repository.insert(creationOf(workSchedule, record), uniquenessKey('12x36'))).rejects.toSatisfy(
      (error: unknown) => WorkplanError.is(error) && error.kind === 'storageUnavailable',
    );
  });
});

/** A promise that never settles unless `signal` aborts, when it rejects with its reason: a server that never answers. */
function noAnswer(options?: { signal?: AbortSignal }): Promise<never> {
  const signal = options?.signal;
  return new Promise((_resolve, reject) => {
    signal?.addEventListener('abort', () => { reject(signal.reason as Error); }, { once: true });
  });
}

/** A collection on a frozen server: every call waits for an answer that never comes. */
function frozenCollection<T extends Document>(): Collection<T> {
  type Options = { signal?: AbortSignal } | undefined;
  const cursor = (options: Options) => {
    const chain = { sort: () => chain, skip: () => chain, limit: () => chain, toArray: () => noAnswer(options) };
    return chain;
  };
  const fake = {
    insertOne: (_document: unknown, options: Options) => noAnswer(options),
    findOne: (_filter: unknown, options: Options) => noAnswer(options),
    find: (_filter: unknown, options: Options) => cursor(options),
    findOneAndUpdate: (_filter: unknown, _update: unknown, options: Options) => noAnswer(options),
    countDocuments: (_filter: unknown, options: Options) => noAnswer(options),
    deleteOne: (_filter: unknown, options: Options) => noAnswer(options),
    createIndexes: (_indexes: unknown, options: Options) => noAnswer(options),
  };
  return fake as unknown as Collection<T>;
}

describe('MongoRecordRepository over a server that never answers', () => {
  const timeoutMS = 200;
  const repository = new MongoRecordRepository({
    kind: workSchedule,
    collection: frozenCollection<RecordDocument>(),
    claims: frozenCollection<ClaimDocument>(),
    protocol: protocolOver(frozenCollection),
    timeoutMS,
  });
  const record = buildRecord(workSchedule, { text: 'parado' });
  const updated = { ...record, value: 'x', updatedAt: new Date(record.updatedAt.getTime() + 1) };

  it.each([
    ['insert', () => repository.insert(creationOf(workSchedule, record), 'parado')],
    ['findById', () => repository.findById(record.id)],
    ['list', () => repository.list({ skip: 0, limit: 10 })],
    ['query', () => repository.query({ search: 'parado', order: { field: 'text', descending: true }, skip: 0, limit: 10, count: false })],
    ['query with its count', () => repository.query({ order: { field: 'createdAt', descending: false }, skip: 0, limit: 10, count: true })],
    ['count', () => repository.count()],
    ['update', () => repository.update(updateOf(workSchedule, record, updated), 'x')],
    ['delete', () => repository.delete(deletionOf(workSchedule, record, new Date()))],
  ])('hostile 4: %s rejects with storageUnavailable once timeoutMS has passed, and not before', async (_name, call) => {
    // On a fake clock: the limit is the repository's arithmetic, not the machine's speed.
    vi.useFakeTimers();
    try {
      const outcome = call().then(() => 'answered', (error: unknown) => (WorkplanError.is(error) ? error.kind : 'another failure'));
      await vi.advanceTimersByTimeAsync(timeoutMS - 1);
      await expect(Promise.race([outcome, Promise.resolve('pending')])).resolves.toBe('pending');
      await vi.advanceTimersByTimeAsync(1);
      await expect(outcome).resolves.toBe('storageUnavailable');
    } finally {
      vi.useRealTimers();
    }
  });

  // Start-up work: over a large collection it takes longer than a request may wait.
  it('hostile 4: ensureIndexes waits past timeoutMS, and rejects with storageUnavailable at 60 s', async () => {
    vi.useFakeTimers();
    try {
      const making = repository.ensureIndexes();
      const outcome = making.then(() => 'made', (error: unknown) => (WorkplanError.is(error) ? error.kind : 'another failure'));
      await vi.advanceTimersByTimeAsync(59_999);
      await expect(Promise.race([outcome, Promise.resolve('pending')])).resolves.toBe('pending');
      await vi.advanceTimersByTimeAsync(1);
      await expect(outcome).resolves.toBe('storageUnavailable');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('MongoRecordRepository reads called off by their caller', () => {
  const repository = new MongoRecordRepository({
    kind: workSchedule,
    collection: frozenCollection<RecordDocument>(),
    claims: frozenCollection<ClaimDocument>(),
    protocol: protocolOver(frozenCollection),
  });
  const order = { field: 'updatedAt', descending: false } as const;

  it.each([
    ['findById', (signal: AbortSignal) => repository.findById(buildRecord(workSchedule).id, { signal })],
    ['list', (signal: AbortSignal) => repository.list({ skip: 0, limit: 10 }, { signal })],
    ['query', (signal: AbortSignal) => repository.query({ order, skip: 0, limit: 10, count: false }, { signal })],
    ['query with its count', (signal: AbortSignal) => repository.query({ search: 'x', order, skip: 0, limit: 10, count: true }, { signal })],
    ['count', (signal: AbortSignal) => repository.count({ signal })],
  ])('%s rejects with the caller’s reason as soon as its signal aborts, and not at all once aborted', async (_name, read) => {
    const reason = new Error('the client went away');
    const controller = new AbortController();
    // The server never answers: settled at all, the read was settled by the abort.
    const reading = read(controller.signal);
    expect(await isSettled(reading)).toBe(false);
    controller.abort(reason);
    await expect(reading).rejects.toBe(reason);
    await expect(read(controller.signal)).rejects.toBe(reason);
  });
});
