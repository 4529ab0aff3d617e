import type { DatabaseSync } from 'node:sqlite';
import { retryWhileBusy } from './busy-retry.js';
import { SQLITE_BUSY, sqliteFailure } from './sqlite-errors.js';
import { failureOf, type ThreadFailure } from './storage-threads.js';
import { type WriteResult, type WriteStep } from './write-statements.js';
import type { WriteAnswer, WriteRequest } from './write-messages.js';

/** The most writes one commit holds, so that the first of them waits for its answer no longer than that many writes take. */
export const MOST_WRITES_A_COMMIT = 64;

/** What a group commit needs of the write thread. */
export interface GroupCommitOptions {
  /** Runs a write's steps: in the batch's transaction, under a savepoint of its own (`writesOn`). */
  readonly write: (steps: readonly WriteStep[]) => WriteResult[];
  readonly busyTimeoutMs: number;
  /** Whether writes were stopped: a batch waiting for the lock gives up. */
  readonly isStopped: () => boolean;
  /** Throws when what was committed cannot be answered as stored (the file moved under it). */
  readonly checkCommitted: () => void;
}

/**
 * Group commit: the writes queued in the write thread share one transaction, so a commit,
 * which writes every page it touched to the WAL (the record's table and indexes, its
 * count, the tail of `changes`), does so once for all of them rather than once each. The
 * first write waits for the file's write lock (`BEGIN IMMEDIATE`) as a lone write would;
 * once the lock is held, `takeQueued` gives each further write already queued, up to
 * MOST_WRITES_A_COMMIT, begun (`BegunWrites`) as it is taken, in order. Kept because
 * with a commit for each write, creates on SQLite miss issue 49's target against the
 * memory store, and the paced creates beside finds are not kept up with
 * (docs/benchmarks/README.md, "Caches and tricks, measured").
 *
 * What holds, so that sharing a transaction never changes what a caller is told:
 * - A write is answered only after the COMMIT that holds it: the answers are returned
 *   once the batch has ended, and posted then.
 * - Each write runs under a savepoint of its own, its steps as `writesOn` runs them and
 *   seeing the writes before it: a write that fails is rolled back to its savepoint, having
 *   changed nothing (its change's number included), and answered its own failure; the
 *   others go on. A failure that rolls back the whole transaction (a full disk, an I/O
 *   error) takes the writes before it with it: they fail with it, and the batch ends.
 * - A COMMIT that fails (or a file found moved after it) fails every write of the batch:
 *   none is acknowledged.
 * Writes must therefore leave nothing to be checked at COMMIT (a deferred constraint):
 * one that did would fail its whole batch.
 */
export function commitTogether(db: DatabaseSync, first: WriteRequest, takeQueued: () => WriteRequest | undefined, options: GroupCommitOptions): WriteAnswer[] {
  try {
    beginWith(db, first, options);
  } catch (error) {
    return [{ id: first.id, failure: failureOf(error) }];
  }
  const answers: WriteAnswer[] = [];
  const held: { id: number; results: WriteResult[] }[] = [];
  let request: WriteRequest | undefined = first;
  for (let taken = 1; request !== undefined; taken += 1) {
    try {
      held.push({ id: request.id, results: options.write(request.steps) });
    } catch (error) {
      const failure = failureOf(error);
      answers.push({ id: request.id, failure });
      if (!db.isTransaction) return [...answers, ...failAll(held, failure)];
    }
    request = taken < MOST_WRITES_A_COMMIT ? takeQueued() : undefined;
  }
  try {
    db.exec('COMMIT');
    options.checkCommitted();
  } catch (error) {
    // A COMMIT that failed for a constraint leaves the transaction open; one for the file has ended it.
    if (db.isTransaction) db.exec('ROLLBACK');
    return [...answers, ...failAll(held, failureOf(error))];
  }
  return [...answers, ...held];
}

/** Takes the write lock for a batch on behalf of its first write, waiting for it until that write's deadline. */
function beginWith(db: DatabaseSync, first: WriteRequest, { busyTimeoutMs, isStopped }: GroupCommitOptions): void {
  // A write that waited out its busy timeout behind others never begins (with none, each is tried once).
  if (busyTimeoutMs > 0 && Date.now() >= first.deadline) throw sqliteFailure(`database is locked (no turn to write within ${busyTimeoutMs} ms)`, SQLITE_BUSY);
  // A busy BEGIN took nothing, so it can be tried again.
  retryWhileBusy(() => {
    db.exec('BEGIN IMMEDIATE');
  }, first.deadline - Date.now(), Date.now, isStopped);
}

function failAll(writes: readonly { id: number }[], failure: ThreadFailure): WriteAnswer[] {
  return writes.map(({ id }) => ({ id, failure }));
}
