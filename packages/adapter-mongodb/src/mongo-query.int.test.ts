import { creationOf, foldText, uniquenessKey, updateOf, workSchedule, WorkplanError, type CatalogRecord } from '@workplan/core';
import { describeWithTestDatabase } from '@workplan/testing/mongodb';
import { buildRecord } from '@workplan/testing';
import { expect, it } from 'vitest';
import { MongoRecordRepository } from './mongo-repository.js';
import { type RecordDocument } from './record-document.js';
import { useTestCollections } from './test-support/test-collections.js';

// MongoDB's side of the queries: what the repository contract suite cannot see from the
// port (the stored folded text, the indexes, a search's pattern, a cursor no document has).
await describeWithTestDatabase('MongoRecordRepository queries', (database) => {
  const collections = useTestCollections(database);

  async function emptyRepository(): Promise<{ repository: MongoRecordRepository<'value'>; name: string }> {
    const { name, collection, claims, changes } = collections.fresh(workSchedule);
    const repository = new MongoRecordRepository({ kind: workSchedule, collection, claims, protocol: changes.protocol });
    await repository.ensureIndexes();
    return { repository, name };
  }

  async function insertAll(repository: MongoRecordRepository<'value'>, records: CatalogRecord<'value'>[]): Promise<void> {
    for (const record of records) await repository.insert(creationOf(workSchedule, record), uniquenessKey(record.value));
  }

  it('stores the folded text beside the text, on insert and on update', async () => {
    const { repository, name } = await emptyRepository();
    const record = buildRecord(workSchedule, { text: 'Manutenção  ELÉTRICA' });
    await repository.insert(creationOf(workSchedule, record), uniquenessKey(record.value));
    const stored = () => collections.db().collection<RecordDocument>(name).findOne({ _id: { $exists: true } });
    await expect(stored()).resolves.toMatchObject({ value: 'Manutenção  ELÉTRICA', folded: 'manutencao eletrica' });

    const updated = { ...record, value: 'Ação Noturna', updatedAt: new Date(record.updatedAt.getTime() + 1) };
    await repository.update(updateOf(workSchedule, record, updated), uniquenessKey('Ação Noturna'));
    await expect(stored()).resolves.toMatchObject({ value: 'Ação Noturna', folded: foldText('Ação Noturna') });
  });

  it('finds the search as written, where the contract suite leaves characters of a pattern out, and control characters', async () => {
    const { repository } = await emptyRepository();
    const texts = ['a|b c{2} +g? x-y', 'ab cc g x y'];
    await insertAll(repository, texts.map((text) => buildRecord(workSchedule, { text })));
    const search = async (text: string) => {
      const { records: found, total } = await repository.query({ search: foldText(text), order: { field: 'text', descending: false }, skip: 0, limit: 10, count: true });
      return { found: found.map((record) => record.value), total };
    };

    for (const literal of ['a|b', 'c{2}', '+g?', 'x-y']) {
      await expect(search(literal), literal).resolves.toEqual({ found: [texts[0]], total: 1 });
    }
    // No record holds a control character (the text rules refuse them), and MongoDB refuses
    // a pattern with a NUL: such a search finds nothing, without an error.
    await expect(search('a\u0000b')).resolves.toEqual({ found: [], total: 0 });
    await expect(search('a\u0001')).resolves.toEqual({ found: [], total: 0 });
  });

  it('refuses, as an invalid query, a position whose id no record can have', async () => {
    const { repository } = await emptyRepository();
    const order = { field: 'createdAt', descending: false } as const;
    for (const id of ['not an id', '0190A000-0000-7000-8000-000000000001']) {
      await expect(repository.query({ order, after: { value: 0, id }, skip: 0, limit: 10, count: false })).rejects.toSatisfy(
        (error: unknown) => WorkplanError.is(error) && error.kind === 'invalidQuery',
      );
    }
  });

  it('makes an index for every order and direction, each with _id ascending after it', async () => {
    const { name } = await emptyRepository();
    const indexes = await collections.db().collection(name).indexes();
    expect(Object.fromEntries(indexes.map((index) => [index.name, index.key]))).toEqual({
      _id_: { _id: 1 },
      key_unique: { key: 1 },
      createdAt_id: { createdAt: 1, _id: 1 },
      createdAt_desc_id: { createdAt: -1, _id: 1 },
      updatedAt_id: { updatedAt: 1, _id: 1 },
      updatedAt_desc_id: { updatedAt: -1, _id: 1 },
      folded_id: { folded: 1, _id: 1 },
      folded_desc_id: { folded: -1, _id: 1 },
    });
  });
});
