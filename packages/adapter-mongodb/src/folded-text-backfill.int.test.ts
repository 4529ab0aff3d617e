import { creationOf, FOLD_VERSION, foldText, uniquenessKey, workSchedule } from '@workplan/core';
import { describeWithTestDatabase } from '@workplan/testing/mongodb';
import { buildRecord } from '@workplan/testing';
import { UUID } from 'mongodb';
import { expect, it } from 'vitest';
import { MongoRecordRepository } from './mongo-repository.js';
import { type RecordDocument } from './record-document.js';
import { useTestCollections } from './test-support/test-collections.js';

await describeWithTestDatabase('backfilling the folded text', (database) => {
  const collections = useTestCollections(database);

  /** A collection holding `count` records as a version that kept no folded text wrote them. */
  async function collectionOfOlderVersion(count: number) {
    const { collection, claims, changes } = collections.fresh(workSchedule);
    const records = Array.from({ length: count }, (_, i) => buildRecord(workSchedule, { text: `Manutenção ${String(i)}` }));
    await collection.insertMany(
      records.map((r) => ({ _id: new UUID(r.id), value: r.value, key: r.value.toLowerCase(), createdAt: r.createdAt, updatedAt: r.updatedAt })),
    );
    const repository = () => new MongoRecordRepository({ kind: workSchedule, collection, claims, protocol: changes.protocol });
    return { collection, claims, records, repository };
  }

  it('gives every record stored before it its folded text, with two instances starting at once', async () => {
    // More than one round of the backfill, and a document of someone else's that is no record.
    const { collection, records, repository } = await collectionOfOlderVersion(130);
    const foreign = { _id: new UUID(), note: 'not a record' } as unknown as RecordDocument;
    await collection.insertOne(foreign);

    await Promise.all([repository().ensureIndexes(), repository().ensureIndexes()]);

    const stored = await collection.find({ value: { $exists: true } }).toArray();
    expect(stored).toHaveLength(records.length);
    for (const document of stored) expect(document.folded).toBe(foldText(document['value'] as string));
    await expect(collection.findOne({ _id: foreign._id })).resolves.toEqual(foreign);
    const found = await repository().query({ search: 'manutencao 12', order: { field: 'text', descending: false }, skip: 0, limit: 100, count: true });
    expect(found.records.map((record) => record.value)).toEqual(['Manutenção 12', 'Manutenção 120', 'Manutenção 121', 'Manutenção 122', 'Manutenção 123', 'Manutenção 124', 'Manutenção 125', 'Manutenção 126', 'Manutenção 127', 'Manutenção 128', 'Manutenção 129']);
    expect(found.total).toBe(11);
  });

  it('leaves a record whose state a writer has claimed to that writer, and fills it on a later start', async () => {
    const { collection, claims, records, repository } = await collectionOfOlderVersion(3);
    const [claimed] = records;
    if (claimed === undefined) throw new Error('no record made');
    const claim = `${claimed.id}@${claimed.updatedAt.getTime()}`;
    await claims.insertOne({ _id: claim, claimedAt: new Date() });

    await repository().ensureIndexes();
    await expect(collection.countDocuments({ folded: { $exists: false } })).resolves.toBe(1);
    await expect(collection.findOne({ _id: new UUID(claimed.id) })).resolves.not.toHaveProperty('folded');

    await claims.deleteOne({ _id: claim });
    await repository().ensureIndexes();
    await expect(collection.countDocuments({ folded: { $exists: false } })).resolves.toBe(0);
  });

  it('folds again a record folded by an older FOLD_VERSION, so a search finds it as it would a new one', async () => {
    const { collection, repository } = await collectionOfOlderVersion(1);
    const fresh = repository();
    await fresh.ensureIndexes();
    const record = buildRecord(workSchedule, { text: 'Straße 12' });
    await fresh.insert(creationOf(workSchedule, record), uniquenessKey(record.value));
    // As the first version folded it, which had no foldedBy: lower case alone.
    await collection.updateOne({ _id: new UUID(record.id) }, { $set: { folded: 'straße 12' }, $unset: { foldedBy: '' } });
    const search = async () => (await repository().query({ search: 'strasse', order: { field: 'text', descending: false }, skip: 0, limit: 10, count: false })).records;
    await expect(search()).resolves.toEqual([]);

    await repository().ensureIndexes();
    await expect(search()).resolves.toEqual([record]);
    await expect(collection.findOne({ _id: new UUID(record.id) })).resolves.toMatchObject({ folded: 'strasse 12', foldedBy: FOLD_VERSION });
  });
});
