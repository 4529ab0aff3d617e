import {
  uniquenessKey,
  workSchedule,
  WorkplanError,
  costCenter,
  type CatalogRecord,
  type RecordKind,
  type RecordRepository,
} from '@workplan/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildRecord } from './records.js';
import { describeRecordQueryContract } from './repository-query-contract.js';

/** Makes an empty repository of the kind asked for. */
export type RepositoryFactory = <F extends string>(kind: RecordKind<F>) => Promise<RecordRepository<F>>;

/**
 * The behaviour every RecordRepository must have, run by each adapter against itself: the
 * writes, finds and plain lists here, the queries and counts in `describeRecordQueryContract`.
 */
export function describeRecordRepositoryContract(adapterName: string, makeRepository: RepositoryFactory): void {
  describeRecordQueryContract(adapterName, makeRepository);
  describe(`${adapterName} record repository contract`, () => {
    let repository: RecordRepository<'value'>;

    beforeEach(async () => {
      repository = await makeRepository(workSchedule);
    });

    const insert = async (overrides: Parameters<typeof buildRecord>[1] = {}): Promise<CatalogRecord<'value'>> => {
      const record = buildRecord(workSchedule, overrides);
      await repository.insert(record, uniquenessKey(record.value));
      return record;
    };

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
      const rejection = repository.insert(second, uniquenessKey('financeiro'));
      await expect(rejection).rejects.toSatisfy(
        (error: unknown) => WorkplanError.is(error) && error.kind === 'conflict' && error.existingId === first.id,
      );
      await expect(repository.findById(second.id)).resolves.toBeUndefined();
    });

    it('lets exactly one of many concurrent inserts of one key win', async () => {
      const attempts = Array.from({ length: 20 }, () => buildRecord(workSchedule, { text: '5x2' }));
      const results = await Promise.allSettled(attempts.map((r) => repository.insert(r, uniquenessKey(r.value))));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      await expect(repository.list({ skip: 0, limit: 100 })).resolves.toHaveLength(1);
    });

    it('updates text, key and updatedAt, keeping id and createdAt', async () => {
      const record = await insert({ text: '12x36' });
      const updatedAt = new Date(record.updatedAt.getTime() + 5);
      const updated = await repository.update(record.id, { text: '12x60', key: '12x60', updatedAt });
      const expected = { id: record.id, value: '12x60', createdAt: record.createdAt, updatedAt };
      expect(updated).toEqual(expected);
      await expect(repository.findById(record.id)).resolves.toEqual(expected);
    });

    it('lets a record be updated to its own key and frees its old key', async () => {
      const record = await insert({ text: 'noturno' });
      const updatedAt = new Date(record.updatedAt.getTime() + 1);
      await repository.update(record.id, { text: 'NOTURNO', key: 'noturno', updatedAt });
      await repository.update(record.id, { text: 'diurno', key: 'diurno', updatedAt });
      await expect(insert({ text: 'noturno' })).resolves.toBeDefined();
    });

    it('refuses an update to a key another record holds, changing nothing', async () => {
      const holder = await insert({ text: '6x1' });
      const other = await insert({ text: '5x2' });
      const change = { text: '6X1', key: '6x1', updatedAt: new Date() };
      await expect(repository.update(other.id, change)).rejects.toSatisfy(
        (error: unknown) => WorkplanError.is(error) && error.kind === 'conflict' && error.existingId === holder.id,
      );
      await expect(repository.findById(other.id)).resolves.toEqual(other);
    });

    it('updates nothing for an unknown id', async () => {
      const change = { text: 'x', key: 'x', updatedAt: new Date() };
      await expect(repository.update('00000000-0000-7000-8000-000000000000', change)).resolves.toBeUndefined();
    });

    it('updates only while the record has the expected updatedAt, else changes nothing', async () => {
      const record = await insert({ text: 'turno A' });
      const later = new Date(record.updatedAt.getTime() + 1);
      const stale = new Date(record.updatedAt.getTime() - 1);
      const refused = await repository.update(record.id, { text: 'turno B', key: 'turno b', updatedAt: later }, stale);
      expect(refused).toBeUndefined();
      await expect(repository.findById(record.id)).resolves.toEqual(record);
      const updated = await repository.update(record.id, { text: 'turno B', key: 'turno b', updatedAt: later }, record.updatedAt);
      expect(updated).toEqual({ ...record, value: 'turno B', updatedAt: later });
      await expect(repository.update(record.id, { text: 'turno C', key: 'turno c', updatedAt: later }, record.updatedAt)).resolves.toBeUndefined();
      await expect(insert({ text: 'turno A' })).resolves.toBeDefined();
    });

    it('checks the expected updatedAt before the key, so a stale update clashing with another record changes nothing', async () => {
      await insert({ text: 'ocupado' });
      const record = await insert({ text: 'livre' });
      const change = { text: 'ocupado', key: 'ocupado', updatedAt: new Date(record.updatedAt.getTime() + 1) };
      await expect(repository.update(record.id, change, new Date(0))).resolves.toBeUndefined();
      await expect(repository.findById(record.id)).resolves.toEqual(record);
    });

    it('lets exactly one of many concurrent updates expecting one updatedAt win', async () => {
      const record = await insert({ text: 'disputado' });
      const updates = Array.from({ length: 20 }, (_, n) => {
        const change = { text: `vencedor ${n}`, key: `vencedor ${n}`, updatedAt: new Date(record.updatedAt.getTime() + 1) };
        return repository.update(record.id, change, record.updatedAt);
      });
      const winners = (await Promise.all(updates)).filter((updated) => updated !== undefined);
      expect(winners).toHaveLength(1);
      await expect(repository.findById(record.id)).resolves.toEqual(winners[0]);
    });

    it('deletes only while the record has the expected updatedAt', async () => {
      const record = await insert({ text: '3x3' });
      await expect(repository.delete(record.id, new Date(record.updatedAt.getTime() + 1))).resolves.toBe(false);
      await expect(repository.findById(record.id)).resolves.toEqual(record);
      await expect(repository.delete(record.id, record.updatedAt)).resolves.toBe(true);
      await expect(repository.findById(record.id)).resolves.toBeUndefined();
      await expect(repository.delete(record.id, record.updatedAt)).resolves.toBe(false);
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
      await repository.update(first.id, { text: 'renamed', key: 'renamed', updatedAt: new Date() });
      const ids = (await repository.list({ skip: 0, limit: 10 })).map((r) => r.id);
      expect(ids).toEqual([first.id, second.id]);
    });

    it('deletes a record, freeing its key, and reports an unknown id', async () => {
      const record = await insert({ text: '4x3' });
      await expect(repository.delete(record.id)).resolves.toBe(true);
      await expect(repository.findById(record.id)).resolves.toBeUndefined();
      await expect(repository.delete(record.id)).resolves.toBe(false);
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
      const costCenters = await makeRepository(costCenter);
      const record = buildRecord(costCenter, { text: 'Financeiro' });
      await costCenters.insert(record, uniquenessKey(record.title));
      await expect(costCenters.findById(record.id)).resolves.toEqual(record);
      await expect(costCenters.list({ skip: 0, limit: 10 })).resolves.toEqual([record]);
    });
  });
}
