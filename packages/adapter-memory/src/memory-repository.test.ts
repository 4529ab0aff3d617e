import { CREATION_ORDER, workSchedule, type CatalogRecord } from '@workplan/core';
import { deleteRecord, describeRecordRepositoryContract, insertRecord, updateRecord } from '@workplan/testing';
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from './memory-storage.js';

describeRecordRepositoryContract('memory', () => Promise.resolve(createMemoryStorage()));

describe('the memory store', () => {
  it('shows each write in the next plain list at once, however many lists came before', async () => {
    const { repositories } = createMemoryStorage();
    const repository = repositories.workSchedules;
    const texts = async (): Promise<string[]> => (await repository.list({ skip: 0, limit: 10 })).map((record) => record.value);
    const first = await insertRecord(repository, workSchedule, { text: 'turno A', createdAt: new Date(2_000) });
    await expect(texts()).resolves.toEqual(['turno A']);
    const earlier = await insertRecord(repository, workSchedule, { text: 'turno 0', createdAt: new Date(1_000) });
    await expect(texts()).resolves.toEqual(['turno 0', 'turno A']);
    const renamed = await updateRecord(repository, workSchedule, first, { text: 'turno B' });
    await expect(texts()).resolves.toEqual(['turno 0', 'turno B']);
    await deleteRecord(repository, workSchedule, earlier);
    await expect(texts()).resolves.toEqual(['turno B']);
    await expect(repository.list({ skip: 0, limit: 10 })).resolves.toEqual([renamed?.data]);
  });

  it('lists in creation order, ties by id, whatever order the records were created, updated and deleted in', async () => {
    const { repositories } = createMemoryStorage();
    const repository = repositories.workSchedules;
    // Few instants for many records: ties, broken by id, and creations that come before ones already kept.
    const kept: CatalogRecord<'value'>[] = [];
    for (let n = 0; n < 60; n += 1) {
      const id = `0190a0b0-0000-7000-8000-${String((n * 37) % 60).padStart(12, '0')}`;
      kept.push(await insertRecord(repository, workSchedule, { id, text: `turno ${n}`, createdAt: new Date(1_000 * ((n * 7) % 5)) }));
    }
    for (const [n, record] of kept.entries()) {
      if (n % 3 === 0) await deleteRecord(repository, workSchedule, record);
      else if (n % 3 === 1) await updateRecord(repository, workSchedule, record, { text: `turno ${n}b` });
    }
    // A write refused (its text is another record's) leaves the order as it was.
    await expect(updateRecord(repository, workSchedule, kept[2] as CatalogRecord<'value'>, { text: 'turno 1b' })).rejects.toMatchObject({ kind: 'conflict' });
    const byId = (records: CatalogRecord<'value'>[]): string[] => records.map((record) => record.id);
    const sorted = await repository.query({ order: CREATION_ORDER, skip: 0, limit: 100, count: false });
    expect(sorted.records).toHaveLength(40);
    expect(byId(await repository.list({ skip: 0, limit: 100 }))).toEqual(byId(sorted.records));
    expect(byId(await repository.list({ skip: 7, limit: 5 }))).toEqual(byId(sorted.records.slice(7, 12)));
    expect(await repository.list({ skip: 0, limit: 100 })).toEqual(sorted.records);
  });
});
