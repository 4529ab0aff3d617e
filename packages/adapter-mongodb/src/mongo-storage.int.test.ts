import { costCenter, creationOf, FOLD_VERSION, uniquenessKey, workSchedule } from '@workplan/core';
import { describeWithTestDatabase } from '@workplan/testing/mongodb';
import { buildRecord } from '@workplan/testing';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectMongo, type MongoStorage } from './mongo-storage.js';

await describeWithTestDatabase('MongoStorage', (database) => {
  let storage: MongoStorage;
  let client: MongoClient;

  beforeAll(async () => {
    storage = await connectMongo({ uri: database.uri });
    client = await MongoClient.connect(database.uri);
  });
  afterAll(async () => {
    await Promise.all([storage.close(), client.close()]);
  });

  it('answers a readiness ping', async () => {
    await expect(storage.ping()).resolves.toBeUndefined();
  });

  it('creates its indexes on connect and again without complaint', async () => {
    await storage.ensureIndexes();
    await storage.ensureIndexes();
    for (const name of ['workSchedules', 'costCenters']) {
      const indexes = await client.db().collection(name).indexes();
      expect(indexes.map((index) => index.name).sort()).toEqual([
        '_id_',
        'createdAt_desc_id',
        'createdAt_id',
        'folded_desc_id',
        'folded_id',
        'key_unique',
        'updatedAt_desc_id',
        'updatedAt_id',
      ]);
    }
    const changeIndexes = await client.db().collection('changes').indexes();
    expect(changeIndexes.map((index) => index.name).sort()).toEqual(['_id_', 'record_changes']);
  });

  it('keeps each kind in its own collection of the database the URI names', async () => {
    const schedule = buildRecord(workSchedule, { text: '6x1' });
    const center = buildRecord(costCenter, { text: 'Financeiro' });
    await storage.repositories.workSchedules.insert(creationOf(workSchedule, schedule), uniquenessKey(schedule.value));
    await storage.repositories.costCenters.insert(creationOf(costCenter, center), uniquenessKey(center.title));

    const db = client.db(database.dbName);
    await expect(db.collection('workSchedules').findOne({}, { projection: { _id: 0 } })).resolves.toEqual({
      value: '6x1',
      folded: '6x1',
      foldedBy: FOLD_VERSION,
      key: '6x1',
      createdAt: schedule.createdAt,
      updatedAt: schedule.updatedAt,
      change: 1,
    });
    await expect(db.collection('costCenters').findOne({}, { projection: { _id: 0, title: 1, key: 1 } })).resolves.toEqual(
      { title: 'Financeiro', key: 'financeiro' },
    );
  });
});
