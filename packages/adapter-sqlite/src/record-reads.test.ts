import { creationOf, comparePositions, foldText, uniquenessKey, workSchedule, type CatalogRecord, type ListPosition, type RecordOrder, type RecordQuery, type SortField } from '@workplan/core';
import { buildRecord, deleteRecord, updateRecord } from '@workplan/testing';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pageStatement, searchCountStatement, type BoundStatement } from './record-reads.js';
import { migrate } from './schema.js';
import { SqliteRecordRepository } from './sqlite-repository.js';

let db: DatabaseSync;
let repository: SqliteRecordRepository<'value'>;

beforeEach(() => {
  db = new DatabaseSync(':memory:');
  migrate(db, ':memory:');
  repository = new SqliteRecordRepository(db, workSchedule);
});

afterEach(() => {
  db.close();
});

async function insert(text: string, at = Date.UTC(2026, 0, 1), updated = at): Promise<CatalogRecord<'value'>> {
  const record = buildRecord(workSchedule, { text, createdAt: new Date(at), updatedAt: new Date(updated) });
  await repository.insert(creationOf(workSchedule, record), uniquenessKey(text));
  return record;
}

/** What SQLite says it will do for a statement: one line per step. */
function planOf({ sql, params }: BoundStatement): string[] {
  return db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params).map(({ detail }) => String(detail));
}

const INDEXES: Record<SortField, string> = { createdAt: 'created_at', updatedAt: 'updated_at', text: 'folded' };
const ORDERS: RecordOrder[] = (['createdAt', 'updatedAt', 'text'] as const).flatMap((field) => [false, true].map((descending) => ({ field, descending })));

describe('the statements of a page', () => {
  const valueOf = (order: RecordOrder): number | string => (order.field === 'text' ? 'escala' : Date.UTC(2026, 0, 1));

  it.each(ORDERS)('walk the index of their order, %j, from the start or from a cursor, with or without a search, never sorting the table', (order) => {
    for (const search of [undefined, 'noturno']) {
      for (const after of [undefined, { value: valueOf(order), id: '0190a000-0000-7000-8000-000000000001' }]) {
        const query: RecordQuery = { search, order, after, skip: 0, limit: 101, count: false };
        const plan = planOf(pageStatement('work_schedules', query));
        expect(plan[0], JSON.stringify(query)).toBe(`${after === undefined ? 'SCAN' : 'SEARCH'} work_schedules USING COVERING INDEX work_schedules_by_${INDEXES[order.field]}${after === undefined ? '' : ` (${INDEXES[order.field]}${order.descending ? '<' : '>'}?)`}`);
        // Descending, the records sharing a value are put in id order, ascending: only that may be sorted.
        expect(plan.slice(1), JSON.stringify(query)).toEqual(order.descending ? ['USE TEMP B-TREE FOR LAST TERM OF ORDER BY'] : []);
      }
    }
  });

  it('count a search on an index, and read the count of all from its row', () => {
    expect(planOf(searchCountStatement('work_schedules', 'noturno'))).toEqual([expect.stringMatching(/^SCAN work_schedules USING COVERING INDEX /u)]);
    expect(planOf({ sql: 'SELECT records FROM record_counts WHERE record_table = ?', params: ['work_schedules'] })).toEqual([
      'SEARCH record_counts USING PRIMARY KEY (record_table=?)',
    ]);
  });
});

describe('a walk of a query through its cursors', () => {
  it.each(ORDERS)('visits each matching record once, in %j, ties by id ascending, whatever the page size', async (order) => {
    // Few distinct dates, and ten texts of one folded text, so that many records share their value.
    const spellings = ['alvaro', 'Álvaro', 'àlvaro', 'Âlvaro', 'ãlvaro', 'alváro', 'ÁLVÁRO', 'àlváro', 'âlváro', 'ãlváro'];
    const records: CatalogRecord<'value'>[] = [];
    for (let n = 0; n < 40; n += 1) {
      const text = n % 4 === 0 ? `${spellings[n / 4] ?? ''} Noturno` : `alvaro ${n % 3 === 0 ? 'noturno' : 'diurno'} ${String(n)}`;
      records.push(await insert(text, Date.UTC(2026, 0, 1 + (n % 3)), Date.UTC(2026, 1, 1 + (n % 5))));
    }
    const search = foldText('NOTURNO');
    const place = (record: CatalogRecord<'value'>): ListPosition =>
      ({ value: order.field === 'text' ? foldText(record.value) : record[order.field].getTime(), id: record.id });
    const expected = records.filter((record) => foldText(record.value).includes(search)).sort((a, b) => comparePositions(place(a), place(b), order));
    for (const limit of [1, 3, 7]) {
      const walked: CatalogRecord<'value'>[] = [];
      let after: RecordQuery['after'];
      // Bounded: a cursor that does not move on would otherwise walk for ever.
      while (walked.length <= records.length) {
        const { records: page } = await repository.query({ search, order, after, skip: 0, limit, count: false });
        walked.push(...page);
        const last = page.at(-1);
        if (page.length < limit || last === undefined) break;
        after = place(last);
      }
      expect(walked).toEqual(expected);
    }
  });
});

describe('a count', () => {
  const query = (search: string | undefined, skip: number, limit: number): Promise<number | undefined> =>
    repository.query({ search, order: { field: 'createdAt', descending: false }, skip, limit, count: true }).then(({ total }) => total);

  it('of a search, whether its page met every match or not, and however far it skips', async () => {
    for (let n = 0; n < 12; n += 1) await insert(`${n % 3 === 0 ? 'Turno' : 'Escala'} ${String(n)}`);
    for (const [skip, limit] of [[0, 100], [0, 2], [1, 2], [3, 100], [4, 100], [50, 100]] as const) {
      await expect(query('turno', skip, limit), `skip ${String(skip)}, limit ${String(limit)}`).resolves.toBe(4);
    }
    await expect(query('nada', 0, 10)).resolves.toBe(0);
    await expect(query('nada', 5, 10)).resolves.toBe(0);
    await expect(query(undefined, 5, 2)).resolves.toBe(12);
    const after = { value: Date.UTC(2026, 0, 1), id: 'ffffffff' };
    await expect(repository.query({ search: 'turno', order: { field: 'createdAt', descending: false }, after, skip: 0, limit: 10, count: true })).resolves.toEqual({
      records: [],
      total: 4,
    });
  });

  it('is kept through inserts and deletes, and unmoved by the writes that fail or change nothing', async () => {
    const first = await insert('12x36');
    const second = await insert('6x1');
    await expect(repository.count()).resolves.toBe(2);
    await expect(repository.insert(creationOf(workSchedule, buildRecord(workSchedule, { text: '12X36' })), uniquenessKey('12x36'))).rejects.toThrow();
    await expect(deleteRecord(repository, workSchedule, { ...first, updatedAt: new Date(0) })).resolves.toBeUndefined();
    await expect(deleteRecord(repository, workSchedule, buildRecord(workSchedule))).resolves.toBeUndefined();
    await updateRecord(repository, workSchedule, first, { text: '12x60', updatedAt: new Date(Date.UTC(2026, 5, 1)) });
    await expect(repository.count()).resolves.toBe(2);
    await deleteRecord(repository, workSchedule, second);
    await expect(repository.count()).resolves.toBe(1);
    db.exec('BEGIN');
    await insert('5x2');
    await expect(repository.count()).resolves.toBe(2);
    db.exec('ROLLBACK');
    await expect(repository.count()).resolves.toBe(1);
  });
});
