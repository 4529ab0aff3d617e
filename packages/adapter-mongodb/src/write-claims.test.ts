import { WorkplanError } from '@workplan/core';
import { MongoBulkWriteError, MongoServerError, type BulkWriteResult, type Collection, type WriteError } from 'mongodb';
import { describe, expect, it, vi } from 'vitest';
import { WriteClaims, type ClaimDocument } from './write-claims.js';

const TIMEOUT_MS = 2000;

/**
 * A claims collection in memory, recording what was asked of it; `release` answers each
 * removal; a bulk insert of a claim in `refuse` is refused with that error code.
 */
function claimsCollection(release: () => Promise<unknown> = () => Promise.resolve(), refuse = new Map<string, number>()) {
  const held = new Map<string, Date>();
  const asked: string[] = [];
  const fake = {
    insertMany: (documents: ClaimDocument[]) => {
      asked.push(`claim ${documents.map((document) => document._id).join(' ')}`);
      const refusals = documents.flatMap((document, index) => {
        const code = held.has(document._id) ? 11000 : refuse.get(document._id);
        if (code === undefined) held.set(document._id, document.claimedAt);
        // What the code reads of a driver's WriteError, which the driver does not export.
        return code === undefined ? [] : [{ code, index } as unknown as WriteError];
      });
      if (refusals.length === 0) return Promise.resolve();
      return Promise.reject(new MongoBulkWriteError({ message: 'refused', code: 11000, writeErrors: refusals }, undefined as unknown as BulkWriteResult));
    },
    deleteMany: ({ _id }: { _id: { $in: string[] } }) => {
      asked.push(`release ${_id.$in.join(' ')}`);
      return release().then(() => { for (const name of _id.$in) held.delete(name); });
    },
    insertOne: (document: ClaimDocument) => {
      asked.push(`claim ${document._id}`);
      if (held.has(document._id)) return Promise.reject(new MongoServerError({ code: 11000, errmsg: 'E11000 duplicate key' }));
      held.set(document._id, document.claimedAt);
      return Promise.resolve();
    },
    findOne: ({ _id }: { _id: string }) => {
      const claimedAt = held.get(_id);
      return Promise.resolve(claimedAt === undefined ? null : { _id, claimedAt });
    },
    deleteOne: ({ _id }: { _id: string }) => {
      asked.push(`release ${_id}`);
      return release().then(() => held.delete(_id));
    },
  };
  return { collection: fake as unknown as Collection<ClaimDocument>, held, asked };
}

const at = new Date('2026-11-23T12:00:00.000Z');
const claim = `r1@${at.getTime()}`;
const signal = new AbortController().signal;
const isUnavailable = (error: unknown) => WorkplanError.is(error) && error.kind === 'storageUnavailable';

describe('WriteClaims', () => {
  it('hostile 4: leaves the claim of a write that had no answer, since it may still land', async () => {
    const claims = claimsCollection();
    const unanswered = WorkplanError.storageUnavailable(new Error('no answer'));
    await expect(new WriteClaims(claims.collection, TIMEOUT_MS).exclusively('r1', at, signal, () => Promise.reject(unanswered))).rejects.toBe(unanswered);
    expect(claims.asked).toEqual([`claim ${claim}`]);
    expect(claims.held.has(claim)).toBe(true);
  });

  it('releases the claim of a write the server refused, which changed nothing', async () => {
    const claims = claimsCollection();
    const refused = WorkplanError.conflict('r2');
    await expect(new WriteClaims(claims.collection, TIMEOUT_MS).exclusively('r1', at, signal, () => Promise.reject(refused))).rejects.toBe(refused);
    expect(claims.asked).toEqual([`claim ${claim}`, `release ${claim}`]);
    expect(claims.held.size).toBe(0);
  });

  it('hostile 4: answers a write that was carried out with its result, even when its claim cannot be released', async () => {
    const claims = claimsCollection(() => Promise.reject(WorkplanError.storageUnavailable(new Error('no answer'))));
    await expect(new WriteClaims(claims.collection, TIMEOUT_MS).exclusively('r1', at, signal, () => Promise.resolve('written'))).resolves.toBe('written');
    expect(claims.asked).toEqual([`claim ${claim}`, `release ${claim}`]);
  });

  it('hostile 4: refuses a state whose claim a writer with no answer left, at once, until the lease ends (twice the call\'s time and the clocks\' allowance); then supersedes it', async () => {
    const claims = claimsCollection();
    const write = () => Promise.resolve('written');
    const claimsOf = new WriteClaims(claims.collection, TIMEOUT_MS);

    // On a clock that stands: a claim's age is the arithmetic of the claims, not the time the test took.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      claims.held.set(claim, new Date());
      await expect(claimsOf.exclusively('r1', at, signal, write)).resolves.toBeUndefined(); // A live writer: wait, then read again.
      claims.held.set(claim, new Date(Date.now() - TIMEOUT_MS - 2000));
      await expect(claimsOf.exclusively('r1', at, signal, write)).rejects.toSatisfy(isUnavailable);
      // The lease: the writer's call, as long again for a step it sent to land, and the clocks' allowance.
      const leaseMs = 2 * TIMEOUT_MS + 1000;
      claims.held.set(claim, new Date(Date.now() - leaseMs + 1));
      await expect(claimsOf.exclusively('r1', at, signal, write)).rejects.toSatisfy(isUnavailable);
      claims.held.set(claim, new Date(Date.now() - leaseMs - 1));
      await expect(claimsOf.exclusively('r1', at, signal, write)).resolves.toBe('written');
    } finally {
      vi.useRealTimers();
    }
    expect(claims.asked.at(-2)).toBe(`claim ${claim}+`);
  });
});

describe('WriteClaims for many records at once', () => {
  const states = ['r1', 'r2', 'r3'].map((recordId) => ({ recordId, updatedAt: at }));
  const names = states.map((state) => `${state.recordId}@${at.getTime()}`);

  it('writes the states no other writer holds, hands back the others, and releases only its own claims', async () => {
    const claims = claimsCollection();
    claims.held.set(names[1] ?? '', new Date());
    const written = await new WriteClaims(claims.collection, TIMEOUT_MS).exclusivelyAll(states, signal, (claimed) =>
      Promise.resolve(claimed.map((state) => state.recordId)),
    );
    expect(written).toEqual({ written: ['r1', 'r3'], unclaimed: [states[1]] });
    expect(claims.asked).toEqual([`claim ${names.join(' ')}`, `release ${names[0]} ${names[2]}`]);
    expect([...claims.held.keys()]).toEqual([names[1]]);
  });

  it('refused for another reason than a clash, releases the claims it took and writes nothing', async () => {
    const claims = claimsCollection(undefined, new Map([[names[2] ?? '', 1]]));
    let wrote = false;
    const writing = new WriteClaims(claims.collection, TIMEOUT_MS).exclusivelyAll(states, signal, () => {
      wrote = true;
      return Promise.resolve();
    });
    await expect(writing).rejects.toBeInstanceOf(MongoBulkWriteError);
    expect(wrote).toBe(false);
    expect(claims.asked.at(-1)).toBe(`release ${names[0]} ${names[1]}`);
    expect(claims.held.size).toBe(0);
  });

  it('hostile 4: leaves the claims of a write that had no answer, since it may still land', async () => {
    const claims = claimsCollection();
    const unanswered = WorkplanError.storageUnavailable(new Error('no answer'));
    await expect(new WriteClaims(claims.collection, TIMEOUT_MS).exclusivelyAll(states, signal, () => Promise.reject(unanswered))).rejects.toBe(unanswered);
    expect(claims.held.size).toBe(3);
  });
});
