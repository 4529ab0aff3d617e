import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { addFoldFunction } from './folded-text.js';

/** A write's result: the rows it changed, and its first row (as an array) when it returns rows. */
export interface WriteResult {
  readonly changes: number;
  readonly row: unknown[] | undefined;
}

/** `run` a statement that returns no rows, or `get` the first row of one that does. */
export type WriteMethod = 'run' | 'get';

/** One statement of a write, and the values bound to it. */
export interface WriteStep {
  readonly method: WriteMethod;
  readonly sql: string;
  readonly params: readonly SQLInputValue[];
}

/** Whether a step changed a row: `run` counts them, a `get` (a write with RETURNING) returns one. */
function changedRow(result: WriteResult): boolean {
  return result.changes > 0 || result.row !== undefined;
}

/**
 * Runs writes on `db`, preparing each statement once, with rows as arrays; they may fold
 * text (`fold_text`). A write is one or more steps run in one transaction, each only when
 * the one before changed a row (a record written, then its change kept): it answers the
 * result of each step it ran. A failing step rolls every step back. On a connection in a
 * transaction already (the write thread's batch, a caller's own), a write is a savepoint.
 */
export function writesOn(db: DatabaseSync): (steps: readonly WriteStep[]) => WriteResult[] {
  addFoldFunction(db);
  const statements = new Map<string, StatementSync>();
  const run = ({ method, sql, params }: WriteStep): WriteResult => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statement.setReturnArrays(true);
      statements.set(sql, statement);
    }
    if (method === 'get') return { changes: 0, row: statement.get(...params) as unknown[] | undefined };
    return { changes: Number(statement.run(...params).changes), row: undefined };
  };
  return (steps) => {
    // A statement alone is a transaction of its own; in one begun already, its write still gets a savepoint.
    if (steps.length === 1 && !db.isTransaction) return steps.map(run);
    return inTransaction(db, () => {
      const results: WriteResult[] = [];
      for (const step of steps) {
        const result = run(step);
        results.push(result);
        if (!changedRow(result)) break;
      }
      return results;
    });
  };
}

/**
 * Runs `work` in a transaction of its own: BEGIN IMMEDIATE takes the write lock first (its
 * busy wait is the connection's, and nothing is written before it), or, on a connection
 * whose owner holds a transaction already, a savepoint in it, so the writes belong to it.
 */
function inTransaction<T>(db: DatabaseSync, work: () => T): T {
  const nested = db.isTransaction;
  db.exec(nested ? 'SAVEPOINT write_steps' : 'BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec(nested ? 'RELEASE write_steps' : 'COMMIT');
    return result;
  } catch (error) {
    // Some failures (a full disk, an I/O error) have rolled the transaction back already.
    if (db.isTransaction) db.exec(nested ? 'ROLLBACK TO write_steps; RELEASE write_steps' : 'ROLLBACK');
    throw error;
  }
}
