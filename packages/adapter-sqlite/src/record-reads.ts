import { type RecordQuery, type SortField } from '@workplan/core';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { RECORD_COUNT_SQL } from './record-counts.js';

/** The columns a record is read from, in the order of each row (rows are arrays). */
export const RECORD_COLUMNS = 'id, "text", created_at, updated_at';

/** The column each order sorts by before `id`: the folded text serves the text order. */
const SORT_COLUMNS: Readonly<Record<SortField, string>> = { createdAt: 'created_at', updatedAt: 'updated_at', text: 'folded' };

/** A page of a query as rows of `RECORD_COLUMNS` (arrays), and the total when it was asked for. */
export interface QueriedRows {
  readonly rows: readonly unknown[];
  readonly total?: number | undefined;
}

/** A statement and the values bound to it. */
export interface BoundStatement {
  readonly sql: string;
  readonly params: SQLInputValue[];
}

/**
 * The statement of a query's page. A search is a contains on the folded text (both sides
 * folded by core, so no LIKE escaping and no collation). `after` is a keyset: a range on
 * the order's index starting at the cursor's value, then, among the records sharing that
 * value, those with a larger id, since ties go by id ascending in both directions.
 */
export function pageStatement(table: string, query: RecordQuery): BoundStatement {
  const column = SORT_COLUMNS[query.order.field];
  const conditions: string[] = [];
  const params: SQLInputValue[] = [];
  if (query.search !== undefined) {
    conditions.push('instr(folded, ?) > 0');
    params.push(query.search);
  }
  if (query.after !== undefined) {
    const beyond = query.order.descending ? '<' : '>';
    conditions.push(`${column} ${beyond}= ? AND (${column} ${beyond} ? OR id > ?)`);
    params.push(query.after.value, query.after.value, query.after.id);
  }
  const where = conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`;
  const direction = query.order.descending ? ' DESC' : '';
  params.push(query.limit, query.skip);
  return { sql: `SELECT ${RECORD_COLUMNS} FROM ${table}${where} ORDER BY ${column}${direction}, id LIMIT ? OFFSET ?`, params };
}

/** The statement counting a search's matches: a walk of the smallest index holding the folded text. */
export function searchCountStatement(table: string, search: string): BoundStatement {
  return { sql: `SELECT count(*) FROM ${table} WHERE instr(folded, ?) > 0`, params: [search] };
}

/**
 * The reads of pages and counts of one record table on one connection, each statement
 * prepared once. The same on the event loop's connection and in the reader thread's.
 */
export class RecordReads {
  readonly #db: DatabaseSync;
  readonly #table: string;
  readonly #statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync, table: string) {
    this.#db = db;
    this.#table = table;
  }

  /** A page of `query`, and with `query.count` the number of records matching its search, both of one snapshot. */
  query(query: RecordQuery): QueriedRows {
    if (!query.count) return { rows: this.#all(pageStatement(this.#table, query)) };
    return this.#inOneSnapshot(() => {
      const rows = this.#all(pageStatement(this.#table, query));
      return { rows, total: this.#totalBeside(query, rows.length) };
    });
  }

  /** How many records the table holds, as its count row says. */
  count(): number {
    return this.#number({ sql: RECORD_COUNT_SQL, params: [this.#table] });
  }

  /**
   * The number of records matching `query.search`. Without a search, the table's count. A
   * walk from the first match that found fewer than it could take has met every match, so
   * it counted them: a search matching few records costs one walk, not two.
   */
  #totalBeside(query: RecordQuery, found: number): number {
    if (query.search === undefined) return this.count();
    const walkedToTheEnd = query.after === undefined && found < query.limit && (found > 0 || query.skip === 0);
    return walkedToTheEnd ? query.skip + found : this.#number(searchCountStatement(this.#table, query.search));
  }

  #inOneSnapshot<T>(read: () => T): T {
    // Inside a caller's transaction, the reads share its snapshot already.
    if (this.#db.isTransaction) return read();
    this.#db.exec('BEGIN');
    try {
      return read();
    } finally {
      this.#db.exec('COMMIT');
    }
  }

  #all({ sql, params }: BoundStatement): unknown[] {
    return this.#prepared(sql).all(...params);
  }

  #number({ sql, params }: BoundStatement): number {
    const [value] = (this.#prepared(sql).get(...params) as unknown[] | undefined) ?? [];
    if (typeof value !== 'number') throw new Error(`${this.#table} has no count`);
    return value;
  }

  #prepared(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      // Rows as arrays: node:sqlite then makes no object with named members for each row.
      statement.setReturnArrays(true);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

/** The reads of each record table on `db`, made once per table. */
export function readsOn(db: DatabaseSync): (table: string) => RecordReads {
  const tables = new Map<string, RecordReads>();
  return (table) => {
    let reads = tables.get(table);
    if (reads === undefined) {
      reads = new RecordReads(db, table);
      tables.set(table, reads);
    }
    return reads;
  };
}
