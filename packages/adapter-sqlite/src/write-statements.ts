import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { addFoldFunction } from './folded-text.js';

/** A write's result: the rows it changed, and its first row (as an array) when it returns rows. */
export interface WriteResult {
  readonly changes: number;
  readonly row: unknown[] | undefined;
}

/** `run` a statement that returns no rows, or `get` the first row of one that does. */
export type WriteMethod = 'run' | 'get';

/** Runs writes on `db`, preparing each statement once, with rows as arrays; they may fold text (`fold_text`). */
export function writesOn(db: DatabaseSync): (method: WriteMethod, sql: string, params: readonly SQLInputValue[]) => WriteResult {
  addFoldFunction(db);
  const statements = new Map<string, StatementSync>();
  return (method, sql, params) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statement.setReturnArrays(true);
      statements.set(sql, statement);
    }
    if (method === 'get') return { changes: 0, row: statement.get(...params) as unknown[] | undefined };
    return { changes: Number(statement.run(...params).changes), row: undefined };
  };
}
