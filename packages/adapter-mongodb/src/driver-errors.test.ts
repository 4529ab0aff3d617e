import { WorkplanError } from '@workplan/core';
import { MongoNetworkError, MongoNetworkTimeoutError, MongoNotConnectedError, MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { guardDriverCall, isDuplicateKeyError, isUnavailableError } from './driver-errors.js';

describe('driver errors', () => {
  it('tells a duplicate key from other server errors', () => {
    expect(isDuplicateKeyError(new MongoServerError({ code: 11000, errmsg: 'E11000 duplicate key' }))).toBe(true);
    expect(isDuplicateKeyError(new MongoServerError({ code: 2, errmsg: 'BadValue' }))).toBe(false);
    expect(isDuplicateKeyError(new Error('E11000'))).toBe(false);
  });

  it("reads FerretDB's SQLite unique-index failure on the key index as a duplicate key", () => {
    const clash = (index: string) =>
      new MongoServerError({ code: 1, errmsg: `[update.go:114] constraint failed: UNIQUE constraint failed: index '${index}' (2067)` });
    expect(isDuplicateKeyError(clash('workschedules_fbffb74a_key_unique'))).toBe(true);
    expect(isDuplicateKeyError(clash('workschedules_fbffb74a_other'))).toBe(false);
  });

  it.each<[string, Error]>([
    ['a broken socket', new MongoNetworkError('connection reset')],
    ['a socket timeout', new MongoNetworkTimeoutError('timed out')],
    ['a client not connected', new MongoNotConnectedError('not connected')],
    ['a node shutting down', new MongoServerError({ code: 91, errmsg: 'ShutdownInProgress' })],
    ['a primary stepping down', new MongoServerError({ code: 189, errmsg: 'PrimarySteppedDown' })],
    ['a cursor the server lost (a restart between two batches)', new MongoServerError({ code: 43, errmsg: 'cursor id 3702149465 not found' })],
  ])('counts %s as an outage', async (_, error) => {
    expect(isUnavailableError(error)).toBe(true);
    const rejection = guardDriverCall(() => Promise.reject(error));
    await expect(rejection).rejects.toSatisfy(
      (thrown: unknown) => WorkplanError.is(thrown) && thrown.kind === 'storageUnavailable' && thrown.cause === error,
    );
  });

  it('lets any other failure through as it is', async () => {
    const refusal = new MongoServerError({ code: 13, errmsg: 'Unauthorized' });
    expect(isUnavailableError(refusal)).toBe(false);
    await expect(guardDriverCall(() => Promise.reject(refusal))).rejects.toBe(refusal);
    const bug = new TypeError('bug');
    await expect(guardDriverCall(() => Promise.reject(bug))).rejects.toBe(bug);
  });
});
