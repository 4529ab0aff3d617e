import { uniquenessKey, workSchedule, WorkplanError, type RecordKind } from '@workplan/core';
import { describeWithTestDatabase } from '@workplan/testing/mongodb';
import { buildRecord, describeRecordRepositoryContract } from '@workplan/testing';
import { MongoClient, UUID, type CommandStartedEvent } from 'mongodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MongoRecordRepository } from './mongo-repository.js';
import { type RecordDocument } from './record-document.js';
import { type ClaimDocument } from './write-claims.js';

await describeWithTestDatabase('MongoRecordRepository', (database) => {
  let client: MongoClient;
  const commands: string[] = [];
  let collections = 0;

  beforeAll(async () => {
    // Command monitoring lets a test see whether the repository asked the server at all.
    client = await MongoClient.connect(database.uri, { monitorCommands: true });
    client.on('commandStarted', (event: CommandStartedEvent) => commands.push(event.commandName));
  });
  afterAll(async () => {
    await client.close();
  });

  /** A repository over a collection no other test touches, with its indexes in place. */
  async function emptyRepository<F extends string>(kind: RecordKind<F>): Promise<MongoRecordRepository<F>> {
    collections += 1;
    const collection = client.db().collection<RecordDocument>(`${kind.name}_${collections}`);
    const claims = client.db().collection<ClaimDocument>(`${kind.name}_${collections}.claims`);
    const repository = new MongoRecordRepository({ kind, collection, claims });
    await repository.ensureIndexes();
    return repository;
  }

  describeRecordRepositoryContract('mongodb', emptyRepository);

  it('lets exactly one of 50 concurrent inserts of one key win, and names it to the others', async () => {
    const repository = await emptyRepository(workSchedule);
    const attempts = Array.from({ length: 50 }, () => buildRecord(workSchedule, { text: '12x36' }));
    const results = await Promise.allSettled(attempts.map((r) => repository.insert(r, uniquenessKey(r.value))));

    const winners = attempts.filter((_, i) => results[i]?.status === 'fulfilled');
    expect(winners).toHaveLength(1);
    const losers = results.filter((r) => r.status === 'rejected');
    for (const loser of losers) {
      expect(WorkplanError.is(loser.reason) && loser.reason.kind === 'conflict').toBe(true);
      expect(loser.reason).toMatchObject({ existingId: winners[0]?.id });
    }
    await expect(repository.list({ skip: 0, limit: 100 })).resolves.toEqual(winners);
  });

  it('waits out a claim another writer holds on the expected state, and takes over one left behind past its lease', async () => {
    const repository = await emptyRepository(workSchedule);
    const claims = client.db().collection<ClaimDocument>(`workSchedule_${collections}.claims`);
    const record = buildRecord(workSchedule, { text: 'reivindicado' });
    await repository.insert(record, uniquenessKey(record.value));
    const claim = `${record.id}@${record.updatedAt.getTime()}`;
    const change = { text: 'novo', key: 'novo', updatedAt: new Date(record.updatedAt.getTime() + 1) };

    await claims.insertOne({ _id: claim, claimedAt: new Date() });
    await expect(repository.update(record.id, change, record.updatedAt)).resolves.toBeUndefined();
    await expect(repository.delete(record.id, record.updatedAt)).resolves.toBe(false);
    await expect(repository.findById(record.id)).resolves.toEqual(record);

    await claims.updateOne({ _id: claim }, { $set: { claimedAt: new Date(Date.now() - 60_000) } });
    await expect(repository.update(record.id, change, record.updatedAt)).resolves.toEqual({ ...record, value: 'novo', updatedAt: change.updatedAt });
    // The successor is released after the write; the claim left behind stays, harmless, as the record moved on.
    await expect(claims.find({}).toArray()).resolves.toEqual([{ _id: claim, claimedAt: expect.any(Date) as unknown }]);
  });

  it('hostile 1: ends every create of one value as created or conflict under create/delete churn, never a raw error', async () => {
    const repository = await emptyRepository(workSchedule);
    const failures: unknown[] = [];
    let created = 0;
    const worker = async () => {
      for (let round = 0; round < 25; round += 1) {
        const record = buildRecord(workSchedule, { text: 'rotativo' });
        try {
          await repository.insert(record, 'rotativo');
          created += 1;
          await repository.delete(record.id);
        } catch (error) {
          if (!(WorkplanError.is(error) && error.kind === 'conflict')) failures.push(error);
        }
      }
    };
    await Promise.all(Array.from({ length: 20 }, worker));
    expect(failures).toEqual([]);
    expect(created).toBeGreaterThan(0);
  });

  it('asks the server nothing for an id that is not a lowercase canonical UUID', async () => {
    const repository = await emptyRepository(workSchedule);
    const record = buildRecord(workSchedule, { text: 'Noturno' });
    await repository.insert(record, uniquenessKey(record.value));
    const change = { text: 'Diurno', key: 'diurno', updatedAt: new Date() };
    commands.length = 0;

    for (const id of [record.id.toUpperCase(), 'not a uuid', `${record.id} `, '{$ne: null}']) {
      await expect(repository.findById(id)).resolves.toBeUndefined();
      await expect(repository.update(id, change)).resolves.toBeUndefined();
      await expect(repository.delete(id)).resolves.toBe(false);
    }
    expect(commands).toEqual([]);
    await expect(repository.findById(record.id)).resolves.toEqual(record);
  });

  it('stores the documented shape: a BSON UUID _id, the text under its field, its folded text, the key and dates', async () => {
    const repository = await emptyRepository(workSchedule);
    const record = buildRecord(workSchedule, { text: 'Turno  da NOITE' });
    await repository.insert(record, uniquenessKey(record.value));

    const stored = await client.db().collection<RecordDocument>(`workSchedule_${collections}`).findOne({});
    expect(stored?._id.sub_type).toBe(4);
    expect(stored).toEqual({
      _id: new UUID(record.id),
      value: 'Turno  da NOITE',
      folded: 'turno da noite',
      key: 'turno da noite',
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    });
  });

  it('creates its indexes again without complaint', async () => {
    const repository = await emptyRepository(workSchedule);
    await expect(repository.ensureIndexes()).resolves.toBeUndefined();
    await expect(repository.ensureIndexes()).resolves.toBeUndefined();
    const indexes = await client.db().collection(`workSchedule_${collections}`).indexes();
    expect(indexes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'key_unique', key: { key: 1 }, unique: true }),
        expect.objectContaining({ name: 'createdAt_id', key: { createdAt: 1, _id: 1 } }),
      ]),
    );
  });
});
