import {
  comparePositions,
  costCenter,
  CREATION_ORDER,
  foldText,
  positionOf,
  workSchedule,
  type CatalogRecord,
  type ListPosition,
  type RecordOrder,
  type RecordQuery,
  type RecordRepository,
} from '@workplan/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildRecord, deleteRecord, insertRecord, updateRecord } from './records.js';
import { type StorageFactory } from './storage-under-test.js';

type Schedule = CatalogRecord<'value'>;

const at = (minute: number): Date => new Date(Date.UTC(2026, 10, 22, 14, minute));

/** Every order a list may take. */
const ORDERS: readonly (readonly [string, RecordOrder])[] = [
  ['createdAt', { field: 'createdAt', descending: false }],
  ['-createdAt', { field: 'createdAt', descending: true }],
  ['updatedAt', { field: 'updatedAt', descending: false }],
  ['-updatedAt', { field: 'updatedAt', descending: true }],
  ['text', { field: 'text', descending: false }],
  ['-text', { field: 'text', descending: true }],
];

/** A query of the whole list in `order`, with what a test is about laid over it. */
const queryOf = (order: RecordOrder, overrides: Partial<RecordQuery> = {}): RecordQuery => ({
  order,
  skip: 0,
  limit: 100,
  count: false,
  ...overrides,
});

/**
 * How `query`, `count` and the sort, search and cursor of a list behave in every storage.
 * Part of the repository contract: `describeRecordRepositoryContract` runs it.
 */
export function describeRecordQueryContract(adapterName: string, makeStorage: StorageFactory): void {
  describe(`${adapterName} record repository query contract`, () => {
    let repository: RecordRepository<'value'>;
    let costCenters: RecordRepository<'title'>;

    beforeEach(async () => {
      ({ workSchedules: repository, costCenters } = (await makeStorage()).repositories);
    });

    const insert = (overrides: Parameters<typeof buildRecord>[1] = {}): Promise<Schedule> => insertRecord(repository, workSchedule, overrides);
    /** Writes `text` over the record as it is now. */
    const rename = async (id: string, text: string, updatedAt: Date): Promise<void> => {
      const current = await repository.findById(id);
      if (current !== undefined) await updateRecord(repository, workSchedule, current, { text, updatedAt });
    };
    /** Deletes the record as it is now, if it is there. */
    const drop = (id: string): Promise<void> => dropRecord(repository, id);
    const textsOf = (records: readonly Schedule[]): string[] => records.map((record) => record.value);
    const search = async (q: string, order: RecordOrder = CREATION_ORDER): Promise<string[]> =>
      textsOf((await repository.query(queryOf(order, { search: foldText(q) }))).records);

    describe('search', () => {
      it('keeps the records whose folded text contains the folded search: accents, case and runs of spaces', async () => {
        for (const text of ['Manutenção Elétrica', 'MANUTENCAO predial', 'Financeiro', 'Recepção  noturna', 'ÁLVARO', 'alvaro']) {
          await insert({ text });
        }
        await expect(search('manutencao')).resolves.toEqual(['Manutenção Elétrica', 'MANUTENCAO predial']);
        await expect(search('ELÉTRICA')).resolves.toEqual(['Manutenção Elétrica']);
        await expect(search('cepção   NOT')).resolves.toEqual(['Recepção  noturna']);
        await expect(search('Álvaro')).resolves.toEqual(['ÁLVARO', 'alvaro']);
        await expect(search('ÃO')).resolves.toEqual(['Manutenção Elétrica', 'MANUTENCAO predial', 'Recepção  noturna']);
        await expect(search('nada disso')).resolves.toEqual([]);
      });

      it('takes every character of the search literally, wildcards and escapes of any query language included', async () => {
        const texts = ['100% pronto', '1000 pronto', 'a_b', 'axb', 'x.*y', 'xay', '(a', '[a]', 'a\\b', "o'brien", '$a', 'a^b', '{"$gt": ""}', '😀 feliz'];
        for (const text of texts) await insert({ text });
        await expect(search('%')).resolves.toEqual(['100% pronto']);
        await expect(search('_')).resolves.toEqual(['a_b']);
        await expect(search('.*')).resolves.toEqual(['x.*y']);
        await expect(search('(')).resolves.toEqual(['(a']);
        await expect(search('[a]')).resolves.toEqual(['[a]']);
        await expect(search('\\')).resolves.toEqual(['a\\b']);
        await expect(search("'")).resolves.toEqual(["o'brien"]);
        await expect(search('$')).resolves.toEqual(['$a', '{"$gt": ""}']);
        await expect(search('^')).resolves.toEqual(['a^b']);
        await expect(search('😀')).resolves.toEqual(['😀 feliz']);
      });

      it('finds a record by its text after an update, and no longer by the old one, nor after a delete', async () => {
        const record = await insert({ text: 'Zeladoria' });
        await insert({ text: 'Portaria' });
        await rename(record.id, 'Acesso Principal', new Date(record.updatedAt.getTime() + 1));
        await expect(search('zela')).resolves.toEqual([]);
        await expect(search('ACESSO')).resolves.toEqual(['Acesso Principal']);
        await expect(search('', { field: 'text', descending: false })).resolves.toEqual(['Acesso Principal', 'Portaria']);
        await drop(record.id);
        await expect(search('acesso')).resolves.toEqual([]);
      });
    });

    describe('orders', () => {
      // Ties in every order, broken by id ascending also where the order descends: a and c
      // share createdAt and updatedAt, b and d createdAt, d and e updatedAt, b and c their
      // folded text. Case and accents do not separate `Álvaro` from `alvaro`, nor put
      // `Élida` after `Zeladoria`.
      const id = (n: number): string => `0190a000-0000-7000-8000-00000000000${String(n)}`;
      const rows = {
        a: { id: id(1), text: 'Zeladoria', createdAt: at(2), updatedAt: at(3) },
        b: { id: id(2), text: 'alvaro', createdAt: at(1), updatedAt: at(5) },
        c: { id: id(3), text: 'Álvaro', createdAt: at(2), updatedAt: at(3) },
        d: { id: id(4), text: 'Élida', createdAt: at(1), updatedAt: at(4) },
        e: { id: id(5), text: 'banco', createdAt: at(3), updatedAt: at(4) },
      };
      type Name = keyof typeof rows;
      const expected: Readonly<Record<string, readonly Name[]>> = {
        createdAt: ['b', 'd', 'a', 'c', 'e'],
        '-createdAt': ['e', 'a', 'c', 'b', 'd'],
        updatedAt: ['a', 'c', 'd', 'e', 'b'],
        '-updatedAt': ['b', 'd', 'e', 'a', 'c'],
        text: ['b', 'c', 'e', 'd', 'a'],
        '-text': ['a', 'd', 'e', 'b', 'c'],
      };
      let records: Record<Name, Schedule>;

      beforeEach(async () => {
        // Inserted in none of the orders, so no storage passes by keeping insertion order.
        const made: Partial<Record<Name, Schedule>> = {};
        for (const name of ['e', 'c', 'a', 'd', 'b'] as const) made[name] = await insert(rows[name]);
        records = made as Record<Name, Schedule>;
      });

      const inOrder = (sort: string): Schedule[] => (expected[sort] ?? []).map((name) => records[name]);

      it.each(ORDERS)('sorts by %s, ties by id ascending', async (sort, order) => {
        await expect(repository.query(queryOf(order))).resolves.toEqual({ records: inOrder(sort) });
      });

      it.each(ORDERS)('starts after a position, exclusively, in %s order', async (sort, order) => {
        const all = inOrder(sort);
        for (const [index, record] of all.entries()) {
          const after = positionOf(record, 'value', order);
          const { records: rest } = await repository.query(queryOf(order, { after }));
          expect(textsOf(rest)).toEqual(textsOf(all.slice(index + 1)));
        }
      });

      it.each(ORDERS)('passes over skip records after the position, and returns at most limit, in %s order', async (sort, order) => {
        const all = inOrder(sort);
        const after = positionOf(all[0] as Schedule, 'value', order);
        await expect(repository.query(queryOf(order, { after, skip: 2, limit: 2 }))).resolves.toEqual({ records: all.slice(3, 5) });
        await expect(repository.query(queryOf(order, { skip: 1, limit: 2 }))).resolves.toEqual({ records: all.slice(1, 3) });
        await expect(repository.query(queryOf(order, { skip: 5 }))).resolves.toEqual({ records: [] });
      });

      it.each(ORDERS)('goes on after the position of a record since deleted, in %s order', async (sort, order) => {
        const all = inOrder(sort);
        const gone = all[2] as Schedule;
        await drop(gone.id);
        const after = positionOf(gone, 'value', order);
        await expect(repository.query(queryOf(order, { after }))).resolves.toEqual({ records: all.slice(3) });
      });

      it.each(ORDERS)('walks a search page by page in %s order', async (sort, order) => {
        const matching = inOrder(sort).filter((record) => foldText(record.value).includes('l'));
        expect(matching).toHaveLength(4);
        const walked: Schedule[] = [];
        let after: ListPosition | undefined;
        for (;;) {
          const { records: page } = await repository.query(queryOf(order, { search: 'l', after, limit: 2 }));
          walked.push(...page);
          const last = page.at(-1);
          if (page.length < 2 || last === undefined) break;
          after = positionOf(last, 'value', order);
        }
        expect(textsOf(walked)).toEqual(textsOf(matching));
      });

      it('orders texts by code point, as UTF-8 bytes compare, not by UTF-16 code unit', async () => {
        for (const text of ['😀', '\uFA0E', 'z']) await insert({ text });
        const sorted = async (descending: boolean): Promise<string[]> =>
          textsOf((await repository.query(queryOf({ field: 'text', descending }))).records);
        await expect(sorted(false)).resolves.toEqual(['alvaro', 'Álvaro', 'banco', 'Élida', 'z', 'Zeladoria', '\uFA0E', '😀']);
        await expect(sorted(true)).resolves.toEqual(['😀', '\uFA0E', 'Zeladoria', 'z', 'Élida', 'banco', 'alvaro', 'Álvaro']);
      });

      it('keeps every order through updates', async () => {
        const updatedAt = at(9);
        await rename(records.d.id, 'Abrigo', updatedAt);
        const moved = { ...records.d, value: 'Abrigo', updatedAt };
        const sorted = async (order: RecordOrder): Promise<string[]> => textsOf((await repository.query(queryOf(order))).records);
        await expect(sorted({ field: 'text', descending: false })).resolves.toEqual(['Abrigo', 'alvaro', 'Álvaro', 'banco', 'Zeladoria']);
        await expect(sorted({ field: 'updatedAt', descending: true })).resolves.toEqual(['Abrigo', 'alvaro', 'banco', 'Zeladoria', 'Álvaro']);
        await expect(repository.query(queryOf(CREATION_ORDER))).resolves.toEqual({
          records: [records.b, moved, records.a, records.c, records.e],
        });
      });
    });

    describe('counts', () => {
      it('counts every record, through inserts, refused inserts, updates and deletes', async () => {
        await expect(repository.count()).resolves.toBe(0);
        const first = await insert({ text: 'um' });
        await insert({ text: 'dois' });
        const third = await insert({ text: 'três' });
        await expect(repository.count()).resolves.toBe(3);
        await expect(insert({ text: 'UM' })).rejects.toThrow();
        await rename(first.id, 'quatro', at(30));
        await expect(repository.count()).resolves.toBe(3);
        await expect(deleteRecord(repository, workSchedule, { ...third, updatedAt: at(59) })).resolves.toBeUndefined();
        await drop(third.id);
        await expect(deleteRecord(repository, workSchedule, third)).resolves.toBeUndefined();
        await expect(repository.count()).resolves.toBe(2);
      });

      it('answers the number of records matching the search, whatever the page, only when asked', async () => {
        const texts = ['Área 1', 'area 2', 'AREA 3', 'Portaria', 'Área 4'];
        const records = [];
        for (const [n, text] of texts.entries()) records.push(await insert({ text, createdAt: at(n) }));
        const after = positionOf(records[0] as Schedule, 'value', CREATION_ORDER);
        await expect(repository.query(queryOf(CREATION_ORDER, { search: 'area', skip: 1, limit: 1, count: true }))).resolves.toEqual({
          records: [records[1]],
          total: 4,
        });
        await expect(repository.query(queryOf(CREATION_ORDER, { search: 'area', after, skip: 5, count: true }))).resolves.toEqual({
          records: [],
          total: 4,
        });
        await expect(repository.query(queryOf(CREATION_ORDER, { limit: 2, count: true }))).resolves.toMatchObject({ total: 5 });
        await expect(repository.query(queryOf(CREATION_ORDER, { search: 'nada', count: true }))).resolves.toEqual({ records: [], total: 0 });
        const uncounted = await repository.query(queryOf(CREATION_ORDER, { search: 'area', limit: 1 }));
        expect(uncounted.total).toBeUndefined();
        // A total kept by a storage between pages must follow every write.
        await insert({ text: 'Área 5' });
        await expect(repository.query(queryOf(CREATION_ORDER, { search: 'area', limit: 1, count: true }))).resolves.toMatchObject({ total: 5 });
        await rename((records[0] as Schedule).id, 'Sala 1', at(40));
        await expect(repository.query(queryOf(CREATION_ORDER, { search: 'area', limit: 1, count: true }))).resolves.toMatchObject({ total: 4 });
        await drop((records[1] as Schedule).id);
        await expect(repository.query(queryOf(CREATION_ORDER, { search: 'area', limit: 1, count: true }))).resolves.toMatchObject({ total: 3 });
      });
    });

    it.each(ORDERS.flatMap(([sort, order]) => [undefined, 'area'].map((term) => [sort, term, order] as const)))(
      'visits, walking by position in %s order with the search %s, every record present throughout exactly once while records come and go',
      async (_sort, term, order) => {
        await walkWhileRecordsChange(insert, repository, order, term);
      },
    );

    it('hostile 7: rejects a query or a count whose signal has aborted with its reason', async () => {
      await insert({ text: 'sinal' });
      const reason = new Error('the request was answered without this read');
      const calledOff = new AbortController();
      calledOff.abort(reason);
      await expect(repository.query(queryOf(CREATION_ORDER, { search: 'sinal', count: true }), { signal: calledOff.signal })).rejects.toBe(reason);
      await expect(repository.query(queryOf(CREATION_ORDER), { signal: calledOff.signal })).rejects.toBe(reason);
      await expect(repository.count({ signal: calledOff.signal })).rejects.toBe(reason);
      const live = new AbortController();
      await expect(repository.count({ signal: live.signal })).resolves.toBe(1);
    });

    it('searches and sorts a cost center by its title', async () => {
      const records = [];
      for (const title of ['Operações', 'Financeiro', 'operacional']) records.push(await insertRecord(costCenters, costCenter, { text: title }));
      const found = await costCenters.query(queryOf({ field: 'text', descending: true }, { search: 'operac', count: true }));
      expect(found).toEqual({ records: [records[0], records[2]], total: 2 });
      await expect(costCenters.count()).resolves.toBe(3);
    });
  });
}

/**
 * Walks the list a few records at a time, going on after the last record of each page, and
 * between pages deletes a record yet to come and one already seen and creates two (one
 * early, one late in the order, so some fall behind the walk and some ahead of it). Every
 * record there from start to end must come exactly once, in order, and nothing twice.
 */
async function walkWhileRecordsChange(
  insert: (overrides: Parameters<typeof buildRecord>[1]) => Promise<Schedule>,
  repository: RecordRepository<'value'>,
  order: RecordOrder,
  search: string | undefined,
): Promise<void> {
  // Folded, the first three spellings are one text: ties in the text order.
  const spellings = ['Área', 'area', 'Arêa', 'Portaria'];
  let made = 0;
  const make = (minute: number): Promise<Schedule> => {
    made += 1;
    const text = `${spellings[made % spellings.length] ?? ''} ${String(Math.floor(made / spellings.length))}`;
    return insert({ text, createdAt: at(minute % 50), updatedAt: at((minute % 50) + (made % 4)) });
  };
  const present = new Map<string, Schedule>();
  for (let n = 0; n < 24; n += 1) {
    const record = await make(n % 7);
    present.set(record.id, record);
  }
  const matches = (record: Schedule): boolean => search === undefined || foldText(record.value).includes(search);
  const seen: Schedule[] = [];
  let after: ListPosition | undefined;
  let ended = false;
  // Each page takes four records and adds at most one to those ahead: the walk ends well within this.
  for (let pages = 0; pages < 100; pages += 1) {
    const { records: page } = await repository.query({ search, order, after, skip: 0, limit: 4, count: false });
    seen.push(...page);
    const last = page.at(-1);
    ended = page.length < 4 || last === undefined;
    if (ended || last === undefined) break;
    after = positionOf(last, 'value', order);
    const seenIds = new Set(seen.map((record) => record.id));
    const ahead = [...present.values()].find((record) => !seenIds.has(record.id) && matches(record));
    const behind = seen.find((record) => present.has(record.id));
    for (const gone of [ahead, behind]) {
      if (gone === undefined) continue;
      await dropRecord(repository, gone.id);
      present.delete(gone.id);
    }
    await make(pages);
    await make(49 - pages);
  }
  expect(ended).toBe(true);
  const ids = seen.map((record) => record.id);
  expect(new Set(ids).size).toBe(ids.length);
  const throughout = [...present.values()].filter(matches).map((record) => record.id);
  expect(ids).toEqual(expect.arrayContaining(throughout));
  expect(seen.every(matches)).toBe(true);
  const positions = seen.map((record) => positionOf(record, 'value', order));
  expect(positions.every((position, n) => n === 0 || comparePositions(positions[n - 1] as ListPosition, position, order) < 0)).toBe(true);
}

/** Deletes the record with `id` as it is now, if it is there. */
async function dropRecord(repository: RecordRepository<'value'>, id: string): Promise<void> {
  const current = await repository.findById(id);
  if (current !== undefined) await deleteRecord(repository, workSchedule, current);
}
