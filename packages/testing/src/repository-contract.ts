import {
  costCenter,
  creationOf,
  uniquenessKey,
  workSchedule,
  WorkplanError,
  type CatalogRecord,
  type RecordRepository,
} from '@workplan/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { describeChangeLogContract } from './change-log-contract.js';
import { buildRecord, deleteRecord, insertRecord, updateRecord, type TextUpdate } from './records.js';
import { describeRecordQueryContract } from './repository-query-contract.js';
import { type StorageFactory, type StorageUnderTest } from './storage-under-test.js';

/**
 * The behaviour every storage's RecordRepository and ChangeLog must have, run by each
 * adapter against itself: the writes, finds and plain lists here, the queries and counts in
 * `describeRecordQueryContract`, the changes kept in `describeChangeLogContract`.
 */
export function describeRecordRepositoryContract(adapterName: string, makeStorage: StorageFactory): void {
  describeRecordQueryContract(adapterName, makeStorage);
  describeChangeLogContract(adapterName, makeStorage);
  describe(`${adapterName} record repository contract`, () => {
    let repository: RecordRepository<'value'>;
    let storage: StorageUnderTest;

    beforeEach(async () => {
      storage = await makeStorage();
      repository = storage.repositories.workSchedules;
    });

    const insert = (overrides: Parameters<typeof buildRecord>[1] = {}): Promise<CatalogRecord<'value'>> =>
      insertRecord(repository, workSchedule, overrides);
    const update = (previous: CatalogRecord<'value'>, change: TextUpdate) => updateRecord(repository, workSchedule, previous, change);
    const remove = (previous: CatalogRecord<'value'>) => deleteRecord(repository, workSchedule, previous);

    it('finds an inserted record by its id, equal to what was stored', async () => {
      const record = await insert({ text: '12x36' });
      await expect(repository.findById(record.id)).resolves.toEqual(record);
    });

    it('finds nothing for an unknown id or another spelling of a real one', async () => {
      const record = await insert();
      await expect(repository.findById('00000000-0000-7000-8000-000000000000')).resolves.toBeUndefined();
      await expect(repository.findById(record.id.toUpperCase())).resolves.toBeUndefined();
      await expect(repository.findById('not a uuid')).resolves.toBeUndefined();
    });

    it('keeps what it stores apart from what callers hold', async () => {
      const record = await insert({ text: '6x1' });
      const found = await repository.findById(record.id);
      found?.createdAt.setTime(0);
      await expect(repository.findById(record.id)).resolves.toEqual(record);
    });

    it('refuses a second record with the same key, naming the first', async () => {
      const first = await insert({ text: 'Financeiro' });
      const second = buildRecord(workSchedule, { text: ' FINANCEIRO ' });
      const rejection = repository.insert(creationOf(workSchedule, second), uniquenessKey('financeiro'));
      await expect(rejection).rejects.toSatisfy(
        (error: unknown) => WorkplanError.is(error) && error.kind === 'conflict' && error.existingId === first.id,
      );
      await expect(repository.findById(second.id)).resolves.toBeUndefined();
    });

    it('lets exactly one of many concurrent inserts of one key win', async () => {
      const attempts = Array.from({ length: 20 }, () => buildRecord(workSchedule, { text: '5x2' }));
      const results = await Promise.allSettled(attempts.map((r) => repository.insert(creationOf(workSchedule, r), uniquenessKey(r.value))));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      await expect(repository.list({ skip: 0, limit: 100 })).resolves.toHaveLength(1);
    });

    it('updates text, key and updatedAt, keeping id and createdAt, and answers the change', async () => {
      const record = await insert({ text: '12x36' });
      const updatedAt = new Date(record.updatedAt.getTime() + 5);
      const change = await update(record, { text: '12x60', updatedAt });
      const expected = { id: record.id, value: '12x60', createdAt: record.createdAt, updatedAt };
      expect(change).toMatchObject({ action: 'update', recordId: record.id, data: expected, previous: record, at: updatedAt });
      await expect(repository.findById(record.id)).resolves.toEqual(expected);
    });

    it('lets a record be updated to its own key and frees its old key', async () => {
      const record = await insert({ text: 'noturno' });
      const upper = (await update(record, { text: 'NOTURNO' }))?.data;
      expect(upper).toBeDefined();
      await update(upper as CatalogRecord<'value'>, { text: 'diurno' });
      await expect(insert({ text: 'noturno' })).resolves.toBeDefined();
    });

    it('refuses an update to a key another record holds, changing nothing', async () => {
      const holder = await insert({ text: '6x1' });
      const other = await insert({ text: '5x2' });
      await expect(update(other, { text: '6X1' })).rejects.toSatisfy(
        (error: unknown) => WorkplanError.is(error) && error.kind === 'conflict' && error.existingId === holder.id,
      );
      await expect(repository.findById(other.id)).resolves.toEqual(other);
    });

    it('updates nothing for an unknown id', async () => {
      const never = buildRecord(workSchedule, { text: 'x' });
      await expect(update(never, { text: 'y' })).resolves.toBeUndefined();
      await expect(repository.findById(never.id)).resolves.toBeUndefined();
    });

    it('updates only while the record has the previous updatedAt, else changes nothing', async () => {
      const record = await insert({ text: 'turno A' });
      const later = new Date(record.updatedAt.getTime() + 1);
      const stale = { ...record, updatedAt: new Date(record.updatedAt.getTime() - 1) };
      await expect(update(stale, { text: 'turno B', updatedAt: later })).resolves.toBeUndefined();
      await expect(repository.findById(record.id)).resolves.toEqual(record);
      const updated = await update(record, { text: 'turno B', updatedAt: later });
      expect(updated?.data).toEqual({ ...record, value: 'turno B', updatedAt: later });
      await expect(update(record, { text: 'turno C', updatedAt: later })).resolves.toBeUndefined();
      await expect(insert({ text: 'turno A' })).resolves.toBeDefined();
    });

    it('checks the previous updatedAt before the key, so a stale update clashing with another record changes nothing', async () => {
      await insert({ text: 'ocupado' });
      const record = await insert({ text: 'livre' });
      const stale = { ...record, updatedAt: new Date(0) };
      await expect(update(stale, { text: 'ocupado' })).resolves.toBeUndefined();
      await expect(repository.findById(record.id)).resolves.toEqual(record);
    });

    it('lets exactly one of many concurrent updates of one state win', async () => {
      const record = await insert({ text: 'disputado' });
      const updatedAt = new Date(record.updatedAt.getTime() + 1);
      const updates = Array.from({ length: 20 }, (_, n) => update(record, { text: `vencedor ${n}`, updatedAt }));
      const winners = (await Promise.all(updates)).filter((updated) => updated !== undefined);
      expect(winners).toHaveLength(1);
      await expect(repository.findById(record.id)).resolves.toEqual(winners[0]?.data);
    });

    it('deletes only while the record has the previous updatedAt', async () => {
      const record = await insert({ text: '3x3' });
      await expect(remove({ ...record, updatedAt: new Date(record.updatedAt.getTime() + 1) })).resolves.toBeUndefined();
      await expect(repository.findById(record.id)).resolves.toEqual(record);
      await expect(remove(record)).resolves.toMatchObject({ action: 'delete', recordId: record.id, data: null, previous: record });
      await expect(repository.findById(record.id)).resolves.toBeUndefined();
      await expect(remove(record)).resolves.toBeUndefined();
    });

    it('lists by createdAt, then id, with skip and limit', async () => {
      const later = new Date('2026-11-22T15:00:00.000Z');
      const earlier = new Date('2026-11-22T14:00:00.000Z');
      const c = await insert({ id: '0190a000-0000-7000-8000-00000000000c', text: 'c', createdAt: later });
      const b = await insert({ id: '0190a000-0000-7000-8000-00000000000b', text: 'b', createdAt: later });
      const a = await insert({ id: '0190a000-0000-7000-8000-00000000000a', text: 'a', createdAt: earlier });
      await expect(repository.list({ skip: 0, limit: 10 })).resolves.toEqual([a, b, c]);
      await expect(repository.list({ skip: 1, limit: 1 })).resolves.toEqual([b]);
      await expect(repository.list({ skip: 3, limit: 10 })).resolves.toEqual([]);
    });

    it('keeps list order through updates', async () => {
      const first = await insert({ createdAt: new Date('2026-01-01T00:00:00.000Z') });
      const second = await insert({ createdAt: new Date('2026-01-02T00:00:00.000Z') });
      await update(first, { text: 'renamed', updatedAt: new Date() });
      const ids = (await repository.list({ skip: 0, limit: 10 })).map((r) => r.id);
      expect(ids).toEqual([first.id, second.id]);
    });

    it('deletes a record, freeing its key', async () => {
      const record = await insert({ text: '4x3' });
      await expect(remove(record)).resolves.toBeDefined();
      await expect(repository.findById(record.id)).resolves.toBeUndefined();
      await expect(insert({ text: '4x3' })).resolves.toBeDefined();
    });

    it('hostile 7: rejects a find or a list whose signal has aborted with its reason; a live signal changes nothing', async () => {
      const record = await insert({ text: 'sinal' });
      const live = new AbortController();
      await expect(repository.findById(record.id, { signal: live.signal })).resolves.toEqual(record);
      await expect(repository.list({ skip: 0, limit: 10 }, { signal: live.signal })).resolves.toEqual([record]);
      const reason = new Error('the request was answered without this read');
      const calledOff = new AbortController();
      calledOff.abort(reason);
      await expect(repository.findById(record.id, { signal: calledOff.signal })).rejects.toBe(reason);
      await expect(repository.list({ skip: 0, limit: 10 }, { signal: calledOff.signal })).rejects.toBe(reason);
    });

    it('stores a cost center under its own field name', async () => {
      const costCenters = storage.repositories.costCenters;
      const record = await insertRecord(costCenters, costCenter, { text: 'Financeiro' });
      await expect(costCenters.findById(record.id)).resolves.toEqual(record);
      await expect(costCenters.list({ skip: 0, limit: 10 })).resolves.toEqual([record]);
    });
  });
}
