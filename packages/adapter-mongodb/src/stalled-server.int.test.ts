import { creationOf, workSchedule } from '@workplan/core';
import { ferretdbBinary, OwnFerretDb } from '@workplan/testing/mongodb';
import { buildRecord } from '@workplan/testing';
import { MongoClient, type ConnectionClosedEvent } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { MongoStorage } from './mongo-storage.js';
import { MongoRecordRepository } from './mongo-repository.js';
import { type RecordDocument } from './record-document.js';
import { changeLogBeside } from './test-support/test-collections.js';
import { type ClaimDocument } from './write-claims.js';

const ferretdb = ferretdbBinary('the stalled-server test');

describe.skipIf(ferretdb === undefined)('the MongoDB adapter over a server that stops answering', () => {
  it('hostile 7: a find or a list on a frozen server is called off by its signal, dropping the connection it waited on', async () => {
    const database = await OwnFerretDb.prepare(ferretdb ?? '');
    await database.start();
    const client = new MongoClient(database.uri('stalled'));
    const closed: string[] = [];
    client.on('connectionClosed', (event: ConnectionClosedEvent) => closed.push(event.reason));
    try {
      // A time limit far beyond the test's: only the signal can end these reads.
      const collection = client.db().collection<RecordDocument>('workSchedules');
      const repository = new MongoRecordRepository({
        kind: workSchedule,
        collection,
        claims: client.db().collection<ClaimDocument>('workSchedules.claims'),
        protocol: changeLogBeside(client.db(), 'workSchedules', collection).protocol,
        timeoutMS: 60_000,
      });
      await repository.ensureIndexes();
      const record = buildRecord(workSchedule, { text: 'congelado' });
      await repository.insert(creationOf(workSchedule, record), 'congelado');
      // Two reads at once leave two open connections in the pool, one for each read below.
      await expect(Promise.all([repository.list({ skip: 0, limit: 10 }), repository.findById(record.id)])).resolves.toEqual([[record], record]);

      database.freeze();
      const reads = [
        (signal: AbortSignal) => repository.findById(record.id, { signal }),
        (signal: AbortSignal) => repository.list({ skip: 0, limit: 10 }, { signal }),
      ];
      for (const read of reads) {
        const calledOff = new AbortController();
        const reason = new Error('the request was answered without this read');
        const reading = read(calledOff.signal);
        setTimeout(() => { calledOff.abort(reason); }, 200);
        // Its time limit outlasts the test: rejected at all with the signal's reason, it was called off by it.
        await expect(reading).rejects.toBe(reason);
      }
      // The driver closed each connection it was waiting on: the server sees its client leave.
      expect(closed).toEqual(['error', 'error']);
      database.thaw();
    } finally {
      database.thaw();
      await client.close();
      await database.kill();
    }
  });

  it('start-up: an index is made over a server slower than a call may take, where a request would give up', async () => {
    const database = await OwnFerretDb.prepare(ferretdb ?? '');
    await database.start();
    // A call's limit, and the socket's limit before start-up work had a limit of its own
    // (twice it), far below how long the server stays frozen. The driver's heartbeat, which
    // ends every call on a server that does not answer it in time, is put off past the test.
    const timeoutMS = 1000;
    const frozenMs = 3000;
    const storage = new MongoStorage({ uri: `${database.uri('slow-start')}?heartbeatFrequencyMS=600000`, timeoutMS });
    try {
      // One chain of index builds (the change log's): it needs one connection, opened here
      // with the server answering, since connecting to a frozen one fails at the call's limit.
      await storage.changes.ensureIndexes();
      database.freeze();
      const making = storage.changes.ensureIndexes();
      setTimeout(() => { database.thaw(); }, frozenMs);
      const started = performance.now();
      await expect(making).resolves.toBeUndefined();
      expect(performance.now() - started).toBeGreaterThan(frozenMs - 100);
      // A request's call still gives up at its own limit.
      database.freeze();
      setTimeout(() => { database.thaw(); }, frozenMs);
      await expect(storage.repositories.workSchedules.count()).rejects.toMatchObject({ kind: 'storageUnavailable' });
    } finally {
      database.thaw();
      await storage.close();
      await database.kill();
    }
  });
});
