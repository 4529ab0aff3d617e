// The core's use cases, on a real repository. They live here, not in core, so that core
// depends on nothing, not even for its tests, and no package cycle forms.
import {
  Catalog,
  MAX_SKIP,
  revisionOf,
  WorkplanError,
  workSchedule,
  type Clock,
  type IdGenerator,
  type PageRequest,
  type RecordInput,
  type WorkplanErrorKind,
} from '@workplan/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { MemoryChangeLog } from './memory-change-log.js';
import { MemoryRecordRepository } from './memory-repository.js';

/** A clock that stands still until a test moves it. */
function fixedClock(start: string): Clock & { advance(ms: number): void } {
  let now = new Date(start).getTime();
  return { now: () => new Date(now), advance: (ms) => (now += ms) };
}

function sequentialIds(): IdGenerator {
  let n = 0;
  return { next: () => `0190a000-0000-7000-8000-${(n += 1).toString(16).padStart(12, '0')}` };
}

/** A document as a parsed JSON body brings it: anything at all, whatever the types say. */
const asArrived = (document: unknown): RecordInput<'value'> => document as RecordInput<'value'>;

const rejectsWith = (kind: WorkplanErrorKind) => (error: unknown) => WorkplanError.is(error) && error.kind === kind;

describe('Catalog', () => {
  let clock: ReturnType<typeof fixedClock>;
  let catalog: Catalog<'value'>;
  let changes: MemoryChangeLog;

  beforeEach(() => {
    clock = fixedClock('2026-11-22T14:36:43.123Z');
    changes = new MemoryChangeLog();
    catalog = new Catalog({
      kind: workSchedule,
      repository: new MemoryRecordRepository(workSchedule, { changes }),
      changes,
      clock,
      ids: sequentialIds(),
      maxPageSize: 3,
    });
  });

  it('creates a record with a new id, the cleaned text and equal timestamps', async () => {
    const created = await catalog.create(asArrived({ value: '  12x36 ', id: 'mine', createdAt: 'yesterday' }));
    expect(created).toEqual({
      id: '0190a000-0000-7000-8000-000000000001',
      value: '12x36',
      createdAt: new Date('2026-11-22T14:36:43.123Z'),
      updatedAt: new Date('2026-11-22T14:36:43.123Z'),
    });
  });

  it.each([null, [], 'text', 7])('refuses a document that is not an object: %j', async (document) => {
    await expect(catalog.create(asArrived(document))).rejects.toSatisfy(rejectsWith('validation'));
  });

  it('is typed by its field, and checks at run time what a type let through', async () => {
    // @ts-expect-error -- the field of a cost center, not of a work schedule
    const wrongField = catalog.create({ title: 'Financeiro' });
    await expect(wrongField).rejects.toMatchObject({ kind: 'validation', issues: [{ field: 'value', rule: 'required' }] });
    // @ts-expect-error -- the text is a string
    await expect(catalog.update('any', { value: 12 })).rejects.toSatisfy(rejectsWith('validation'));
  });

  it('reads only an own value member', async () => {
    const document: unknown = JSON.parse('{"__proto__": {"value": "6x1"}}');
    await expect(catalog.create(asArrived(document))).rejects.toSatisfy(
      (error: unknown) => WorkplanError.is(error) && error.issues[0]?.rule === 'required',
    );
  });

  it('names the field and the rule a bad value breaks', async () => {
    const rejection = catalog.create(asArrived({ value: { $gt: '' } }));
    await expect(rejection).rejects.toMatchObject({ kind: 'validation', issues: [{ field: 'value', rule: 'notString' }] });
  });

  it('refuses a clashing value, naming the record that holds it', async () => {
    const first = await catalog.create({ value: 'Noturno' });
    await expect(catalog.create({ value: ' NOTURNO ' })).rejects.toMatchObject({
      kind: 'conflict',
      existingId: first.id,
    });
  });

  it('updates the text and moves updatedAt forward even when the clock has not', async () => {
    const created = await catalog.create({ value: '6x1' });
    const updated = await catalog.update(created.id, { value: '6X1' });
    expect(updated.value).toBe('6X1');
    expect(updated.createdAt).toEqual(created.createdAt);
    expect(updated.updatedAt.getTime()).toBe(created.updatedAt.getTime() + 1);
    clock.advance(1000);
    const again = await catalog.update(created.id, { value: '6x2' });
    expect(again.updatedAt).toEqual(clock.now());
  });

  it('checks the document before the record exists, and existence before uniqueness', async () => {
    await catalog.create({ value: 'taken' });
    await expect(catalog.update('missing', asArrived({ value: 7 }))).rejects.toSatisfy(rejectsWith('validation'));
    await expect(catalog.update('missing', { value: 'taken' })).rejects.toSatisfy(rejectsWith('notFound'));
  });

  it('finds by exact id only', async () => {
    const created = await catalog.create({ value: '5x2' });
    await expect(catalog.find(created.id)).resolves.toEqual(created);
    await expect(catalog.find(created.id.toUpperCase())).rejects.toSatisfy(rejectsWith('notFound'));
  });

  it('lists a page and names the next one when more follow', async () => {
    for (const value of ['a', 'b', 'c', 'd']) {
      await catalog.create({ value });
      clock.advance(1);
    }
    const first = await catalog.list({ skip: 0, limit: 3 });
    expect(first.records.map((r) => r.value)).toEqual(['a', 'b', 'c']);
    expect(first.next).toEqual({ skip: 3, limit: 3 });
    const last = await catalog.list({ skip: 3, limit: 3 });
    expect(last).toEqual({ records: [expect.objectContaining({ value: 'd' })] });
    await expect(catalog.list({ skip: 10, limit: 1 })).resolves.toEqual({ records: [] });
  });

  it('lists the first records up to the largest page when no page is given', async () => {
    for (const value of ['a', 'b', 'c', 'd']) await catalog.create({ value });
    const page = await catalog.list();
    expect(page.records.map((r) => r.value)).toEqual(['a', 'b', 'c']);
    expect(page.next).toEqual({ skip: 3, limit: 3 });
  });

  it('names no next page past the farthest skip', async () => {
    const records = await Promise.all(['a', 'b', 'c'].map((value) => catalog.create({ value })));
    // A storage that always has more: only the skip range can end the walk.
    const endless = new MemoryRecordRepository(workSchedule);
    endless.list = () => Promise.resolve(records);
    const walker = new Catalog({ kind: workSchedule, repository: endless, changes, clock, ids: sequentialIds(), maxPageSize: 2 });
    await expect(walker.list({ skip: MAX_SKIP - 4, limit: 2 })).resolves.toMatchObject({ next: { skip: MAX_SKIP - 2, limit: 2 } });
    await expect(walker.list({ skip: MAX_SKIP - 1, limit: 2 })).resolves.not.toHaveProperty('next');
  });

  it.each([
    { skip: -1, limit: 1 },
    { skip: 1.5, limit: 1 },
    { skip: 10_000_001, limit: 1 },
    { skip: 0, limit: 0 },
    { skip: 0, limit: 4 },
    { skip: 0, limit: Number.NaN },
  ])('refuses the page %j', async (page) => {
    await expect(catalog.list(page)).rejects.toSatisfy(rejectsWith('invalidPage'));
  });

  it('deletes a record once', async () => {
    const created = await catalog.create({ value: '4x3' });
    await catalog.delete(created.id);
    await expect(catalog.find(created.id)).rejects.toSatisfy(rejectsWith('notFound'));
    await expect(catalog.delete(created.id)).rejects.toSatisfy(rejectsWith('notFound'));
  });

  describe('lists with a search, a sort, a cursor or a count', () => {
    const texts = ['Manutenção Elétrica', 'Financeiro', 'MANUTENCAO predial', 'manutenção hidráulica', 'Recepção'];

    beforeEach(async () => {
      for (const value of texts) {
        await catalog.create({ value });
        clock.advance(1);
      }
    });

    const valuesOf = (page: { records: readonly { value: string }[] }): string[] => page.records.map((record) => record.value);
    /** The cursor as a client holds it: JSON, as the HTTP adapter sends it. */
    const asSent = (cursor: unknown): unknown => JSON.parse(JSON.stringify(cursor));

    it('finds by a folded q and goes on after the cursor of its last page, counting every page', async () => {
      const first = await catalog.list({ q: ' manutencao ', limit: 2, count: true });
      expect(valuesOf(first)).toEqual(['Manutenção Elétrica', 'MANUTENCAO predial']);
      expect(first).toMatchObject({ total: 3 });
      expect(first).not.toHaveProperty('next');
      const second = await catalog.list({ q: 'MANUTENÇÃO', limit: 2, count: true, after: asSent(first.nextAfter) });
      expect(second).toEqual({ records: [expect.objectContaining({ value: 'manutenção hidráulica' })], total: 3 });
    });

    it('sorts by the text, descending, page by page', async () => {
      const walked: string[] = [];
      let after: unknown;
      for (let pages = 0; pages < texts.length; pages += 1) {
        const page = await catalog.list({ sort: '-value', limit: 2, after });
        walked.push(...valuesOf(page));
        if (page.nextAfter === undefined) break;
        after = asSent(page.nextAfter);
      }
      expect(walked).toEqual(['Recepção', 'MANUTENCAO predial', 'manutenção hidráulica', 'Manutenção Elétrica', 'Financeiro']);
    });

    it('passes over skip matches before the page, and names no cursor when the matches end with the page', async () => {
      const skipped = await catalog.list({ q: 'manutencao', skip: 1, limit: 1 });
      expect(valuesOf(skipped)).toEqual(['MANUTENCAO predial']);
      const rest = await catalog.list({ q: 'manutencao', limit: 3, after: asSent(skipped.nextAfter) });
      expect(rest).toEqual({ records: [expect.objectContaining({ value: 'manutenção hidráulica' })] });
      await expect(catalog.list({ q: 'manutencao', limit: 3 })).resolves.not.toHaveProperty('nextAfter');
    });

    it('counts a plain list, and a blank q leaves it plain, paged by skip', async () => {
      const counted = await catalog.list({ limit: 2, count: true });
      expect(counted).toMatchObject({ next: { skip: 2, limit: 2 }, total: 5 });
      expect(counted).not.toHaveProperty('nextAfter');
      const blank = await catalog.list({ q: ' \t ', limit: 2 });
      expect(valuesOf(blank)).toEqual(['Manutenção Elétrica', 'Financeiro']);
      expect(blank).toMatchObject({ next: { skip: 2, limit: 2 } });
      expect(blank).not.toHaveProperty('total');
    });

    it('counts nothing found as zero', async () => {
      await expect(catalog.list({ q: 'folha', count: true })).resolves.toEqual({ records: [], total: 0 });
    });

    it('refuses a cursor of another order or search, or one that is no cursor', async () => {
      const { nextAfter } = await catalog.list({ sort: 'value', limit: 1 });
      await expect(catalog.list({ sort: '-value', after: asSent(nextAfter) })).rejects.toSatisfy(rejectsWith('invalidQuery'));
      await expect(catalog.list({ sort: 'value', q: 'a', after: asSent(nextAfter) })).rejects.toSatisfy(rejectsWith('invalidQuery'));
      await expect(catalog.list({ after: asSent(nextAfter) })).rejects.toSatisfy(rejectsWith('invalidQuery'));
      for (const after of ['', 'abc', null, {}, [], ['workSchedule', 'text', false, null, 7, 'x']]) {
        await expect(catalog.list({ sort: 'value', after })).rejects.toSatisfy(rejectsWith('invalidQuery'));
      }
    });

    it.each([
      { q: 'x'.repeat(201) },
      { q: '\uD800' },
      { sort: 'title' },
      { sort: '' },
      { q: 7 },
      { q: ['manutencao'] },
      { sort: ['value'] },
      { count: 'true' },
      { count: 1 },
    ])('refuses %j as an invalid query', async (request) => {
      await expect(catalog.list(request as PageRequest)).rejects.toSatisfy(rejectsWith('invalidQuery'));
    });

    it('checks the page before the query', async () => {
      await expect(catalog.list({ limit: 0, sort: 'nenhum' })).rejects.toSatisfy(rejectsWith('invalidPage'));
    });
  });

  describe('revisions', () => {
    it('gives each state of a record its own revision, also when updates race while the clock stands still', async () => {
      const created = await catalog.create({ value: '12x36' });
      const racing = await Promise.all(['12x60', '24x72', '6x1', '5x2'].map((value) => catalog.update(created.id, { value })));
      const revisions = [created, ...racing].map(revisionOf);
      expect(new Set(revisions).size).toBe(5);
      const current = await catalog.find(created.id);
      expect(revisionOf(current)).toBe(revisionOf(racing.reduce((a, b) => (a.updatedAt > b.updatedAt ? a : b))));
    });

    it('keeps the revision through finds, lists and failed updates', async () => {
      const created = await catalog.create({ value: '4x2' });
      await catalog.create({ value: 'ocupado' });
      await expect(catalog.update(created.id, { value: 'OCUPADO' })).rejects.toSatisfy(rejectsWith('conflict'));
      await catalog.list();
      expect(revisionOf(await catalog.find(created.id))).toBe(revisionOf(created));
    });

    it('updates and deletes only at an expected revision, else refuses as stale and changes nothing', async () => {
      const created = await catalog.create({ value: '7x0' });
      const updated = await catalog.update(created.id, { value: '7x1' }, [revisionOf(created)]);
      await expect(catalog.update(created.id, { value: '7x2' }, [revisionOf(created)])).rejects.toSatisfy(rejectsWith('stale'));
      await expect(catalog.update(created.id, { value: '7x2' }, [])).rejects.toSatisfy(rejectsWith('stale'));
      await expect(catalog.delete(created.id, [revisionOf(created)])).rejects.toSatisfy(rejectsWith('stale'));
      await expect(catalog.find(created.id)).resolves.toEqual(updated);
      await catalog.delete(created.id, ['other', revisionOf(updated)]);
      await expect(catalog.find(created.id)).rejects.toSatisfy(rejectsWith('notFound'));
    });

    it('checks fields, then existence, then the revision, then uniqueness', async () => {
      const taken = await catalog.create({ value: 'tomado' });
      const created = await catalog.create({ value: 'livre' });
      const stale = ['stale'];
      await expect(catalog.update(created.id, { value: '' }, stale)).rejects.toSatisfy(rejectsWith('validation'));
      await expect(catalog.update('missing', { value: 'x' }, stale)).rejects.toSatisfy(rejectsWith('notFound'));
      await expect(catalog.delete('missing', stale)).rejects.toSatisfy(rejectsWith('notFound'));
      await expect(catalog.update(created.id, { value: taken.value }, stale)).rejects.toSatisfy(rejectsWith('stale'));
      await expect(catalog.update(created.id, { value: taken.value }, [revisionOf(created)])).rejects.toSatisfy(rejectsWith('conflict'));
    });

    it('answers an outage, not a hang, when the storage never lets a write to one record through', async () => {
      const repository = new MemoryRecordRepository(workSchedule);
      const stuck = new Catalog({ kind: workSchedule, repository, changes, clock, ids: sequentialIds(), maxPageSize: 3 });
      const created = await stuck.create({ value: 'preso' });
      repository.update = () => Promise.resolve(undefined);
      repository.delete = () => Promise.resolve(undefined);
      await expect(stuck.update(created.id, { value: 'solto' })).rejects.toSatisfy(rejectsWith('storageUnavailable'));
      await expect(stuck.delete(created.id, [revisionOf(created)])).rejects.toSatisfy(rejectsWith('storageUnavailable'));
    });

    it('lets exactly one of many concurrent updates at one expected revision win', async () => {
      const created = await catalog.create({ value: 'disputa' });
      const attempts = Array.from({ length: 20 }, (_, n) => catalog.update(created.id, { value: `disputa ${n}` }, [revisionOf(created)]));
      const results = await Promise.allSettled(attempts);
      const won = results.filter((result) => result.status === 'fulfilled');
      expect(won).toHaveLength(1);
      expect(results.filter((result) => result.status === 'rejected' && rejectsWith('stale')(result.reason))).toHaveLength(19);
      await expect(catalog.find(created.id)).resolves.toEqual(won[0]?.value);
    });
  });
});
