import { creationOf, deletionOf, FOLD_VERSION, updateOf, uniquenessKey, workSchedule, WorkplanError, type CatalogRecord } from '@workplan/core';
import { describeWithTestDatabase } from '@workplan/testing/mongodb';
import { buildRecord, describeRecordRepositoryContract } from '@workplan/testing';
import { MongoClient, UUID, type CommandStartedEvent } from 'mongodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MongoChangeLog } from './mongo-change-log.js';
import { MongoRecordRepository } from './mongo-repository.js';
import { type MongoStorage } from './mongo-storage.js';
import { type RecordDocument } from './record-document.js';
import { useTestStorages } from './test-support/test-storages.js';
import { type ClaimDocument } from './write-claims.js';

/** `record` with the text `text`, a millisecond later. */
function edited(record: CatalogRecord<'value'>, text: string): CatalogRecord<'value'> {
  return { ...record, value: text, updatedAt: new Date(record.updatedAt.getTime() + 1) };
}

await describeWithTestDatabase('MongoRecordRepository', (database) => {
  const storages = useTestStorages(database);
  let client: MongoClient;
  const commands: string[] = [];

  beforeAll(async () => {
    // Command monitoring lets a test see whether the repository asked the server at all.
    client = await MongoClient.connect(database.uri, { monitorCommands: true });
    client.on('commandStarted', (event: CommandStartedEvent) => commands.push(event.commandName));
  });
  afterAll(async () => {
    await client.close();
  });

  describeRecordRepositoryContract('mongodb', async () => (await storages.fresh()).storage);

  /** A fresh storage, and its database seen through the test's own client. */
  async function freshStorage(): Promise<{ storage: MongoStorage; db: ReturnType<MongoClient['db']> }> {
    const { storage, dbName } = await storages.fresh();
    return { storage, db: client.db(dbName) };
  }

  it('lets exactly one of 50 concurrent inserts of one key win, names it to the others, and keeps its change alone', async () => {
    const { storage } = await freshStorage();
    const repository = storage.repositories.workSchedules;
    const attempts = Array.from({ length: 50 }, () => buildRecord(workSchedule, { text: '12x36' }));
    const results = await Promise.allSettled(attempts.map((r) => repository.insert(creationOf(workSchedule, r), uniquenessKey(r.value))));

    const winners = attempts.filter((_, i) => results[i]?.status === 'fulfilled');
    expect(winners).toHaveLength(1);
    const losers = results.filter((r) => r.status === 'rejected');
    for (const loser of losers) {
      expect(WorkplanError.is(loser.reason) && loser.reason.kind === 'conflict').toBe(true);
      expect(loser.reason).toMatchObject({ existingId: winners[0]?.id });
    }
    await expect(repository.list({ skip: 0, limit: 100 })).resolves.toEqual(winners);
    const feed = await storage.changes.read(0, 100);
    expect(feed.map((change) => [change.action, change.data])).toEqual([['create', winners[0]]]);
  });

  it('waits out a claim another writer holds on the expected state, and takes over one left behind past its lease', async () => {
    const { storage, db } = await freshStorage();
    const repository = storage.repositories.workSchedules;
    const claims = db.collection<ClaimDocument>('workSchedules.claims');
    const record = buildRecord(workSchedule, { text: 'reivindicado' });
    await repository.insert(creationOf(workSchedule, record), uniquenessKey(record.value));
    const claim = `${record.id}@${record.updatedAt.getTime()}`;
    const update = updateOf(workSchedule, record, edited(record, 'novo'));

    await claims.insertOne({ _id: claim, claimedAt: new Date() });
    await expect(repository.update(update, 'novo')).resolves.toBeUndefined();
    await expect(repository.delete(deletionOf(workSchedule, record, new Date()))).resolves.toBeUndefined();
    await expect(repository.findById(record.id)).resolves.toEqual(record);

    await claims.updateOne({ _id: claim }, { $set: { claimedAt: new Date(Date.now() - 60_000) } });
    await expect(repository.update(update, 'novo')).resolves.toEqual({ id: '2', ...update });
    // The successor is released after the write; the claim left behind stays, harmless, as the record moved on.
    await expect(claims.find({}).toArray()).resolves.toEqual([{ _id: claim, claimedAt: expect.any(Date) as unknown }]);
    await expect(storage.changes.read(0, 10)).resolves.toEqual([expect.objectContaining({ action: 'create' }), { id: '2', ...update }]);
  });

  it('hostile 1: ends every create of one value as created or conflict under create/delete churn, never a raw error, and keeps each success alone', async () => {
    const { storage } = await freshStorage();
    const repository = storage.repositories.workSchedules;
    const failures: unknown[] = [];
    let written = 0;
    const worker = async () => {
      for (let round = 0; round < 5; round += 1) {
        const record = buildRecord(workSchedule, { text: 'rotativo' });
        try {
          await repository.insert(creationOf(workSchedule, record), 'rotativo');
          written += 1;
          await repository.delete(deletionOf(workSchedule, record, new Date()));
          written += 1;
        } catch (error) {
          if (!(WorkplanError.is(error) && error.kind === 'conflict')) failures.push(error);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(failures).toEqual([]);
    expect(written).toBeGreaterThan(0);
    const feed = await storage.changes.read(0, 1000);
    expect(feed).toHaveLength(written);
    const numbers = feed.map((change) => Number(change.id));
    expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
    for (const [i, change] of feed.entries()) {
      if (change.action === 'delete') expect(feed.slice(0, i).some((c) => c.action === 'create' && c.recordId === change.recordId)).toBe(true);
    }
  });

  it('asks the server nothing for an id that is not a lowercase canonical UUID', async () => {
    const db = client.db(`${database.dbName}_uuids`);
    const changes = new MongoChangeLog({
      collections: {
        changes: db.collection('changes'),
        outcomes: db.collection('changes.outcomes'),
        deletions: db.collection('changes.deletions'),
        pruned: db.collection('changes.pruned'),
      },
      records: () => db.collection<RecordDocument>('workSchedules'),
      timeoutMS: 2000,
      leaseMs: 30_000,
    });
    const repository = new MongoRecordRepository({
      kind: workSchedule,
      collection: db.collection<RecordDocument>('workSchedules'),
      claims: db.collection<ClaimDocument>('workSchedules.claims'),
      protocol: changes.protocol,
    });
    const record = buildRecord(workSchedule, { text: 'Noturno' });
    await repository.insert(creationOf(workSchedule, record), uniquenessKey(record.value));
    commands.length = 0;

    for (const id of [record.id.toUpperCase(), 'not a uuid', `${record.id} `, '{$ne: null}']) {
      const other = { ...record, id };
      await expect(repository.findById(id)).resolves.toBeUndefined();
      await expect(repository.update(updateOf(workSchedule, other, edited(other, 'Diurno')), 'diurno')).resolves.toBeUndefined();
      await expect(repository.delete(deletionOf(workSchedule, other, new Date()))).resolves.toBeUndefined();
    }
    expect(commands).toEqual([]);
    await expect(repository.findById(record.id)).resolves.toEqual(record);
    await db.dropDatabase();
  });

  it('stores the documented shape: a BSON UUID _id, the text under its field, its folded text, the key, dates and the last change', async () => {
    const { storage, db } = await freshStorage();
    const record = buildRecord(workSchedule, { text: 'Turno  da NOITE' });
    await storage.repositories.workSchedules.insert(creationOf(workSchedule, record), uniquenessKey(record.value));

    const stored = await db.collection<RecordDocument>('workSchedules').findOne({});
    expect(stored?._id.sub_type).toBe(4);
    expect(stored).toEqual({
      _id: new UUID(record.id),
      value: 'Turno  da NOITE',
      folded: 'turno da noite',
      foldedBy: FOLD_VERSION,
      key: 'turno da noite',
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      change: 1,
    });
  });

  it('creates its indexes again without complaint', async () => {
    const { storage, db } = await freshStorage();
    await expect(storage.ensureIndexes()).resolves.toBeUndefined();
    const indexes = await db.collection('workSchedules').indexes();
    expect(indexes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'key_unique', key: { key: 1 }, unique: true }),
        expect.objectContaining({ name: 'createdAt_id', key: { createdAt: 1, _id: 1 } }),
      ]),
    );
  });
});
