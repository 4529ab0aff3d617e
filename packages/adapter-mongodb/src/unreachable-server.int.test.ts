import { createServer } from 'node:net';
import { creationOf, deletionOf, updateOf, workSchedule, WorkplanError } from '@workplan/core';
import { buildRecord } from '@workplan/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, MongoStorage } from './mongo-storage.js';

/** A loopback port nothing listens on: taken from the system, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve, reject) => {
    server.close((error) => {
      if (error) reject(error);
      else resolve();
    });
  });
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

const isStorageUnavailable = (error: unknown): boolean => WorkplanError.is(error) && error.kind === 'storageUnavailable';

// Needs no database: this is what the app answers while MongoDB is down.
describe('MongoDB storage with no server', () => {
  let uri: string;
  let storage: MongoStorage;

  beforeAll(async () => {
    uri = `mongodb://127.0.0.1:${await closedPort()}/workplan`;
    storage = new MongoStorage({ uri, timeoutMS: 300 });
  });
  afterAll(async () => {
    await storage.close();
  });

  // That it gives up at the default time limit is the storage's arithmetic, tested on a fake clock (mongo-storage.test.ts).
  it('fails a readiness ping with storageUnavailable with the default time limit', async () => {
    const withDefaults = new MongoStorage({ uri });
    try {
      await expect(withDefaults.ping()).rejects.toSatisfy(isStorageUnavailable);
    } finally {
      await withDefaults.close();
    }
  });

  it('refuses to connect with storageUnavailable', async () => {
    await expect(connectMongo({ uri, timeoutMS: 300 })).rejects.toSatisfy(isStorageUnavailable);
  });

  it('rejects every repository operation with storageUnavailable', async () => {
    const record = buildRecord(workSchedule);
    const updated = { ...record, value: 'x', updatedAt: new Date(record.updatedAt.getTime() + 1) };
    const results = await Promise.allSettled([
      storage.repositories.workSchedules.insert(creationOf(workSchedule, record), 'x'),
      storage.repositories.workSchedules.update(updateOf(workSchedule, record, updated), 'x'),
      storage.repositories.workSchedules.findById(record.id),
      storage.repositories.workSchedules.list({ skip: 0, limit: 10 }),
      storage.repositories.workSchedules.delete(deletionOf(workSchedule, record, new Date())),
      storage.changes.read(0, 10),
      storage.changes.history(workSchedule.name, record.id, 0, 1000),
      storage.ensureIndexes(),
    ]);
    const unavailable = results.map((result) => result.status === 'rejected' && isStorageUnavailable(result.reason));
    expect(unavailable).toEqual([true, true, true, true, true, true, true, true]);
  });
});
