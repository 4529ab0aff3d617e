import { changeIdOf, seedKinds, WorkplanError, type Change, type ChangeLog, type Kinds, type ReadOptions } from '@workplan/core';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { CHANGE_COLUMNS, changeOfRow, sequenceOfRow } from './change-table.js';
import { guardSqliteCall, translateSqliteError } from './sqlite-errors.js';
import { sameConnectionWriter, type SqliteWriter } from './sqlite-writer.js';
import { type WriteStep } from './write-statements.js';

/** How often the file is looked at for changes other processes committed, while someone waits for one. */
export const CHANGE_POLL_MS = 100;

// The changes to prune: those before the first one made at or after `before` (?1), or all
// of them if none was; the highest pruned sequence is moved first, in the same transaction,
// so a reader who finds it below its `after` has found every change after `after` still there.
function pruneSteps(before: Date): WriteStep[] {
  const moveMark = `UPDATE changes_pruned SET sequence = coalesce(
      (SELECT sequence - 1 FROM changes WHERE at >= ?1 ORDER BY sequence LIMIT 1),
      (SELECT max(sequence) FROM changes),
      sequence)`;
  return [
    { method: 'run', sql: moveMark, params: [before.getTime()] },
    { method: 'run', sql: 'DELETE FROM changes WHERE sequence <= (SELECT sequence FROM changes_pruned)', params: [] },
  ];
}

/**
 * A page of a record's history: kind ?1, record ?2, after ?3, limit ?4. The index on
 * `record_id` holds the rowid (`sequence`) after it, so a page is one range of the index,
 * in order, read no further than the limit.
 */
export const HISTORY_SQL = `SELECT ${CHANGE_COLUMNS} FROM changes WHERE record_id = ?2 AND kind = ?1 AND sequence > ?3 ORDER BY sequence LIMIT ?4`;

/** Someone waiting for a change after `after`. */
interface Waiter {
  readonly after: number;
  readonly wake: () => void;
}

/**
 * The changes the repositories of a storage committed, in their table (change-table.ts).
 * Changes are numbered in their write's transaction, under the file's write lock, so any
 * snapshot of the table holds every change up to its highest: a reader never meets a gap
 * a later commit would fill, whichever process wrote.
 *
 * Reads run on the event loop's connection (`db`), as a list's first pages do: a page is a
 * range of the primary key, as long as the caller asks (the feed asks a thousand at most),
 * and a history one record's range of an index; neither walks rows it does not return, so
 * each holds the loop for a time bounded by its size, unlike a search, which goes to a
 * thread. Writes (`prune`) go to `writer`, the repositories'.
 */
export class SqliteChangeLog implements ChangeLog {
  readonly #writer: SqliteWriter;
  readonly #read: StatementSync;
  readonly #history: StatementSync;
  readonly #pruned: StatementSync;
  readonly #last: StatementSync;
  readonly #waiters = new Set<Waiter>();
  readonly #kinds: Kinds;
  #poll: NodeJS.Timeout | undefined;

  /** `kinds`: those whose changes it reads back (a change keeps its kind's name, not its field's). */
  constructor(db: DatabaseSync, writer: SqliteWriter = sameConnectionWriter(db), kinds: Kinds = seedKinds) {
    this.#writer = writer;
    this.#kinds = kinds;
    this.#read = db.prepare(`SELECT ${CHANGE_COLUMNS} FROM changes WHERE sequence > ? ORDER BY sequence LIMIT ?`);
    this.#history = db.prepare(HISTORY_SQL);
    this.#pruned = db.prepare('SELECT sequence FROM changes_pruned');
    this.#last = db.prepare('SELECT coalesce(max(sequence), 0) FROM changes');
    for (const statement of [this.#read, this.#history, this.#pruned, this.#last]) statement.setReturnArrays(true);
  }

  async read(after: number, limit: number, options?: ReadOptions): Promise<Change[]> {
    options?.signal?.throwIfAborted();
    const rows = guardSqliteCall(() => this.#read.all(after, limit));
    this.#refuseExpired(after);
    return rows.map((row) => changeOfRow(row, this.#kinds));
  }

  async history(kind: string, recordId: string, after: number, limit: number, options?: ReadOptions): Promise<Change[]> {
    options?.signal?.throwIfAborted();
    const rows = guardSqliteCall(() => this.#history.all(kind, recordId, after, limit));
    this.#refuseExpired(after);
    return rows.map((row) => changeOfRow(row, this.#kinds));
  }

  /**
   * Woken at once by `noteCommitted` (this storage's repositories), and by a look at the
   * highest sequence every CHANGE_POLL_MS while anyone waits (other connections, in this
   * process or another).
   */
  async waitAfter(after: number, waitMs: number, options?: ReadOptions): Promise<void> {
    const signal = options?.signal;
    if (signal?.aborted === true || guardSqliteCall(() => this.#number(this.#last)) > after) return;
    await new Promise<void>((resolve) => {
      const waiter: Waiter = {
        after,
        wake: () => {
          clearTimeout(timer);
          this.#waiters.delete(waiter);
          signal?.removeEventListener('abort', waiter.wake);
          if (this.#waiters.size === 0) this.#stopPolling();
          resolve();
        },
      };
      const timer = setTimeout(waiter.wake, waitMs);
      this.#waiters.add(waiter);
      signal?.addEventListener('abort', waiter.wake, { once: true });
      if (this.#poll === undefined) {
        this.#poll = setInterval(() => {
          this.#lookForCommits();
        }, CHANGE_POLL_MS);
        // Each waiter's own timer keeps the process alive while it waits.
        this.#poll.unref();
      }
    });
  }

  // One transaction of the write thread: a signal can only call it off before it starts.
  async prune(before: Date, options?: ReadOptions): Promise<number> {
    options?.signal?.throwIfAborted();
    try {
      const results = await this.#writer.write(pruneSteps(before));
      return results[1]?.changes ?? 0;
    } catch (error) {
      throw translateSqliteError(error);
    }
  }

  /** Wakes whoever waits for a change after a number below `sequence`: a repository of this storage has just committed change `sequence`. */
  noteCommitted(sequence: number): void {
    for (const waiter of this.#waiters) if (waiter.after < sequence) waiter.wake();
  }

  /** Wakes every waiter and stops looking (the storage is closing). */
  close(): void {
    for (const waiter of this.#waiters) waiter.wake();
    this.#stopPolling();
  }

  #lookForCommits(): void {
    let last: number;
    try {
      last = this.#number(this.#last);
    } catch {
      // The waiters read again and meet the failure themselves, in their own call.
      last = Infinity;
    }
    this.noteCommitted(last);
  }

  /**
   * Refuses a page read from `after` once changes after it were pruned. Asked after the page:
   * a prune committed before the page was read shows here, so a page missing pruned changes
   * is never answered (a prune after it took nothing from it). 0 reads from the first change
   * kept, whatever was pruned: a new follower's start.
   */
  #refuseExpired(after: number): void {
    if (after > 0 && after < guardSqliteCall(() => this.#number(this.#pruned))) throw WorkplanError.cursorExpired(changeIdOf(after));
  }

  #stopPolling(): void {
    clearInterval(this.#poll);
    this.#poll = undefined;
  }

  /** The sequence a one-row statement (`#pruned`, `#last`) answers. */
  #number(statement: StatementSync): number {
    return sequenceOfRow(statement.get() as unknown[] | undefined);
  }
}
