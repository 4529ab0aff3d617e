import { workSchedule, WorkplanError, uniquenessKey } from '@workplan/core';
import { buildRecord } from '@workplan/testing';
import { MongoServerError, UUID, type Collection } from 'mongodb';
import { describe, expect, it } from 'vitest';
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

describe('MongoRecordRepository under create/delete churn', () => {
  it('hostile 1: a create that keeps losing to a holder deleted before the look-up ends as a conflict, never the raw driver error', async () => {
    const holder = '0190a000-0000-7000-8000-0000000000aa';
    const repository = new MongoRecordRepository({ kind: workSchedule, collection: churningCollection(20, holder), claims });
    const record = buildRecord(workSchedule, { text: '12x36' });
    await expect(repository.insert(record, uniquenessKey('12x36'))).rejects.toSatisfy(
      (error: unknown) => WorkplanError.is(error) && error.kind === 'conflict' && error.existingId === holder,
    );
  });

  it('hostile 1: a race that never settles is an outage to the caller, not an internal error', async () => {
    const repository = new MongoRecordRepository({ kind: workSchedule, collection: churningCollection(Infinity, ''), claims });
    const record = buildRecord(workSchedule, { text: '12x36' });
    await expect(repository.insert(record, uniquenessKey('12x36'))).rejects.toSatisfy(
      (error: unknown) => WorkplanError.is(error) && error.kind === 'storageUnavailable',
    );
  });
});
