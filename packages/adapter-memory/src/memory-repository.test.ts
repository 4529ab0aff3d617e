import { foldText, workSchedule, type CatalogRecord, type RecordQuery } from '@workplan/core';
import { deleteRecord, describeRecordRepositoryContract, insertRecord, updateRecord } from '@workplan/testing';
import { describe, expect, it } from 'vitest';
import { MemoryRecordRepository } from './memory-repository.js';
import { createMemoryStorage } from './memory-storage.js';
import { ScanLane } from './scan-lane.js';

describeRecordRepositoryContract('memory', () => Promise.resolve(createMemoryStorage()));

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('memory searches, a slice at a time', () => {
  // Slices of no time: a search yields after every few hundred records, so writes land between its slices.
  const repositoryWithThinSlices = async (count: number): Promise<{ repository: MemoryRecordRepository<'value'>; records: CatalogRecord<'value'>[] }> => {
    const repository = new MemoryRecordRepository(workSchedule, { lane: new ScanLane({ sliceMs: 0 }) });
    const records = [];
    for (let n = 0; n < count; n += 1) {
      records.push(await insertRecord(repository, workSchedule, { text: `${n % 3 === 0 ? 'Área' : 'Sala'} ${String(n)}` }));
    }
    return { repository, records };
  };
  const search: RecordQuery = { search: 'area', order: { field: 'text', descending: true }, skip: 0, limit: 5000, count: true };

  it('sees the records as they were when asked, while records are written between its slices: none twice, none new', async () => {
    const { repository, records } = await repositoryWithThinSlices(6000);
    const asked = records.filter((record) => foldText(record.value).includes('area'));
    const progress = { answered: false };
    const pending = repository.query(search).finally(() => (progress.answered = true));
    let writes = 0;
    for (let n = 0; !progress.answered; n += 1) {
      await nextTurn();
      const current = (index: number) => repository.findById((records[index % records.length] as CatalogRecord<'value'>).id);
      // A change that moves a record ahead in the order, a delete, and a new match.
      const moved = await current(n * 37);
      if (moved !== undefined) await updateRecord(repository, workSchedule, moved, { text: `Área ${String(n)} zz`, updatedAt: new Date() });
      const gone = await current(n * 53 + 1);
      if (gone !== undefined) await deleteRecord(repository, workSchedule, gone);
      await insertRecord(repository, workSchedule, { text: `Área nova ${String(n)}` });
      writes += 1;
    }
    const found = await pending;
    expect(writes).toBeGreaterThan(3);
    expect(found.total).toBe(asked.length);
    const expected = [...asked].sort((a, b) => (foldText(a.value) < foldText(b.value) ? 1 : -1));
    expect(found.records).toEqual(expected);
    const afterwards = await repository.query(search);
    expect(afterwards.records.some((record) => record.value.startsWith('Área nova'))).toBe(true);
  });

  it('stops between slices once its signal aborts', async () => {
    const { repository } = await repositoryWithThinSlices(3000);
    const controller = new AbortController();
    const reason = new Error('the request was answered without this read');
    const pending = repository.query(search, { signal: controller.signal });
    await nextTurn();
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});
