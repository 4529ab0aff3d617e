import { type DeliveryFailure, type DeliveryLedger, type DeliveryState } from '@workplan/core';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { guardSqliteCall, translateSqliteError } from './sqlite-errors.js';
import { sameConnectionWriter, type SqliteWriter } from './sqlite-writer.js';
import { type WriteMethod, type WriteResult } from './write-statements.js';

/**
 * The table of schema version 5 (issue 30): a row per webhook subscription, made by its
 * first claim. A lease is its holder and end (both null while free); a failure is its five
 * columns (all null while none, `last_error` standing for them), times in milliseconds.
 */
export const CREATE_DELIVERY_TABLE_SQL = `
  CREATE TABLE webhook_deliveries (
    subscription TEXT PRIMARY KEY,
    cursor INTEGER NOT NULL,
    lease_holder TEXT,
    lease_expires_at INTEGER,
    last_error TEXT,
    failing_since INTEGER,
    attempts INTEGER,
    next_attempt INTEGER,
    marked_failing_at INTEGER
  ) STRICT, WITHOUT ROWID;`;

const STATE_COLUMNS = 'subscription, cursor, lease_holder, lease_expires_at, last_error, failing_since, attempts, next_attempt, marked_failing_at';

// Each operation is one statement, so one transaction under the file's write lock: the
// lease is checked and written in the same step, whichever process races.
const CLAIM_SQL = `
  INSERT INTO webhook_deliveries (subscription, cursor, lease_holder, lease_expires_at) VALUES (?1, 0, ?2, ?4)
  ON CONFLICT (subscription) DO UPDATE SET lease_holder = ?2, lease_expires_at = ?4
    WHERE lease_holder IS NULL OR lease_holder = ?2 OR lease_expires_at <= ?3
  RETURNING ${STATE_COLUMNS}`;
const HELD = 'WHERE subscription = ?1 AND lease_holder = ?2';
const ADVANCE_SQL = `UPDATE webhook_deliveries SET cursor = max(cursor, ?3),
    last_error = NULL, failing_since = NULL, attempts = NULL, next_attempt = NULL, marked_failing_at = NULL ${HELD}`;
const FAIL_SQL = `UPDATE webhook_deliveries SET last_error = ?3, failing_since = ?4, attempts = ?5, next_attempt = ?6, marked_failing_at = ?7 ${HELD}`;
const RELEASE_SQL = `UPDATE webhook_deliveries SET lease_holder = NULL, lease_expires_at = NULL ${HELD}`;

/**
 * The progress of webhook subscriptions in the SQLite file, shared by every process serving
 * it. Writes go through the storage's writer (its write thread, for a file); `state` reads
 * one row on the calling thread, as the change log's reads do.
 */
export class SqliteDeliveryLedger implements DeliveryLedger {
  readonly #writer: SqliteWriter;
  readonly #state: StatementSync;

  constructor(db: DatabaseSync, writer: SqliteWriter = sameConnectionWriter(db)) {
    this.#writer = writer;
    this.#state = db.prepare(`SELECT ${STATE_COLUMNS} FROM webhook_deliveries WHERE subscription = ?`);
    this.#state.setReturnArrays(true);
  }

  async claim(subscription: string, holder: string, now: Date, until: Date): Promise<DeliveryState | undefined> {
    const row = (await this.#write('get', CLAIM_SQL, [subscription, holder, now.getTime(), until.getTime()])).row;
    return row === undefined ? undefined : stateOfRow(row);
  }

  async advance(subscription: string, holder: string, cursor: number): Promise<boolean> {
    return (await this.#write('run', ADVANCE_SQL, [subscription, holder, cursor])).changes > 0;
  }

  async fail(subscription: string, holder: string, failure: DeliveryFailure): Promise<boolean> {
    const { lastError, failingSince, attempts, nextAttempt, markedFailingAt } = failure;
    const params = [subscription, holder, lastError, failingSince.getTime(), attempts, msOrNull(nextAttempt), msOrNull(markedFailingAt)];
    return (await this.#write('run', FAIL_SQL, params)).changes > 0;
  }

  async release(subscription: string, holder: string): Promise<void> {
    await this.#write('run', RELEASE_SQL, [subscription, holder]);
  }

  async state(subscription: string): Promise<DeliveryState | undefined> {
    const row = guardSqliteCall(() => this.#state.get(subscription)) as unknown[] | undefined;
    return row === undefined ? undefined : stateOfRow(row);
  }

  async #write(method: WriteMethod, sql: string, params: readonly SQLInputValue[]): Promise<WriteResult> {
    try {
      const [result] = await this.#writer.write([{ method, sql, params }]);
      return result ?? { changes: 0, row: undefined };
    } catch (error) {
      throw translateSqliteError(error);
    }
  }
}

function msOrNull(date: Date | null): number | null {
  return date === null ? null : date.getTime();
}

/** A row of `STATE_COLUMNS`, in their order, as a state. */
function stateOfRow(row: unknown[]): DeliveryState {
  const [subscription, cursor, holder, expiresAt, lastError, failingSince, attempts, nextAttempt, markedFailingAt] = row;
  // STRICT columns hold only these types; anything else is a file changed behind our back.
  if (typeof subscription !== 'string' || typeof cursor !== 'number') throw unshaped();
  return {
    subscription,
    cursor,
    lease: holder === null ? null : { holder: textOf(holder), expiresAt: dateOf(expiresAt) },
    failure:
      lastError === null
        ? null
        : {
            lastError: textOf(lastError),
            failingSince: dateOf(failingSince),
            attempts: numberOf(attempts),
            nextAttempt: nextAttempt === null ? null : dateOf(nextAttempt),
            markedFailingAt: markedFailingAt === null ? null : dateOf(markedFailingAt),
          },
  };
}

function textOf(value: unknown): string {
  if (typeof value !== 'string') throw unshaped();
  return value;
}

function numberOf(value: unknown): number {
  if (typeof value !== 'number') throw unshaped();
  return value;
}

function dateOf(ms: unknown): Date {
  return new Date(numberOf(ms));
}

function unshaped(): Error {
  return new Error('a row of webhook_deliveries does not have the shape this code wrote');
}
