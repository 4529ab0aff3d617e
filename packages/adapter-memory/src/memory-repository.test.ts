import { foldText, uniquenessKey, workSchedule, type CatalogRecord, type RecordQuery } from '@workplan/core';
import { buildRecord, describeRecordRepositoryContract } from '@workplan/testing';
import { describe, expect, it } from 'vitest';
import { MemoryRecordRepository } from './memory-repository.js';
import { ScanLane } from './scan-lane.js';

describeRecordRepositoryContract('memory', (kind) => Promise.resolve(new MemoryRecordRepository(kind)));

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('memory searches, a slice at a time', () => {
  // Slices of no time: a search yields after every few hundred records, so writes land between its slices.
  const repositoryWithThinSlices = async (count: number): Promise<{ repository: MemoryRecordRepository<'value'>; records: CatalogRecord<'value'>[] }> => {
    const repository = new MemoryRecordRepository(workSchedule, { lane: new ScanLane({ sliceMs: 0 }) });
    const records = [];
    for (let n = 0; n < count; n += 1) {
      const record = buildRecord(workSchedule, { text: `${n % 3 === 0 ? 'Área' : 'Sala'} ${String(n)}` });
      await repository.insert(record, uniquenessKey(record.value));
      records.push(record);
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
      const record = records[(n * 37) % records.length] as CatalogRecord<'value'>;
      // A change that moves a record ahead in the order, a delete, and a new match.
      const moved = `Área ${String(n)} zz`;
      await repository.update(record.id, { text: moved, key: uniquenessKey(moved), updatedAt: new Date() });
      await repository.delete((records[(n * 53 + 1) % records.length] as CatalogRecord<'value'>).id);
      const created = buildRecord(workSchedule, { text: `Área nova ${String(n)}` });
      await repository.insert(created, uniquenessKey(created.value));
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
