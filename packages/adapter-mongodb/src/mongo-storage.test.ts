import { WorkplanError } from '@workplan/core';
import { Db, MongoClient } from 'mongodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MongoStorage } from './mongo-storage.js';
import { DEFAULT_TIMEOUT_MS } from './time-limit.js';

describe('MongoStorage.close', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  // The driver's close ends the cursors still open, and a server that stopped answering
  // holds that for the socket's limit, which work no request waits for lengthens: a service
  // stopping must not wait for it.
  it('resolves within the time limit of a call when the driver waits on a server that does not answer', async () => {
    const closes = vi.spyOn(MongoClient.prototype, 'close').mockReturnValue(new Promise<void>(() => {}));
    const storage = new MongoStorage({ uri: 'mongodb://127.0.0.1:9/none', timeoutMS: 100 });
    // On a fake clock: the limit is the storage's arithmetic, not the machine's speed.
    vi.useFakeTimers();
    try {
      const closed = storage.close().then(() => 'closed');
      await vi.advanceTimersByTimeAsync(99);
      await expect(Promise.race([closed, Promise.resolve('waiting')])).resolves.toBe('waiting');
      await vi.advanceTimersByTimeAsync(1);
      await expect(closed).resolves.toBe('closed');
      expect(closes).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
    }
  });

  it('passes on the failure of a close that fails', async () => {
    const failure = new Error('closing failed');
    vi.spyOn(MongoClient.prototype, 'close').mockRejectedValue(failure);
    await expect(new MongoStorage({ uri: 'mongodb://127.0.0.1:9/none', timeoutMS: 100 }).close()).rejects.toBe(failure);
  });
});

describe('MongoStorage.ping', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('fails with storageUnavailable once the default time limit has passed when the server does not answer, and not before', async () => {
    // A server that never answers: the ping's command waits until its signal aborts.
    vi.spyOn(Db.prototype, 'command').mockImplementation((_command, options) => {
      const signal = options?.signal;
      return new Promise((_resolve, reject) => {
        signal?.addEventListener('abort', () => { reject(signal.reason as Error); }, { once: true });
      });
    });
    const storage = new MongoStorage({ uri: 'mongodb://127.0.0.1:9/none' });
    // On a fake clock: the limit is the storage's arithmetic, not the machine's speed.
    vi.useFakeTimers();
    try {
      const outcome = storage.ping().then(() => 'answered', (error: unknown) => (WorkplanError.is(error) ? error.kind : 'another failure'));
      await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS - 1);
      await expect(Promise.race([outcome, Promise.resolve('pending')])).resolves.toBe('pending');
      await vi.advanceTimersByTimeAsync(1);
      await expect(outcome).resolves.toBe('storageUnavailable');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('MongoStorage lease', () => {
  it('refuses a lease shorter than a write sent may still land (2 × timeoutMS + 1 s), and takes one as long or longer', () => {
    const uri = 'mongodb://127.0.0.1:9/none';
    expect(() => new MongoStorage({ uri, timeoutMS: 2000, leaseMs: 4999 })).toThrow('leaseMs must be at least 5000 (2 × timeoutMS + 1000), not 4999');
    expect(() => new MongoStorage({ uri, timeoutMS: 2000, leaseMs: Number.NaN })).toThrow(RangeError);
    expect(() => new MongoStorage({ uri, timeoutMS: 2000, leaseMs: 5000 })).not.toThrow();
    expect(() => new MongoStorage({ uri, timeoutMS: 2000, leaseMs: 60_000 })).not.toThrow();
  });
});
