// The write thread of a storage (see sqlite-writer.ts): a connection of its own that runs
// the writes posted to it, one after another, and posts back each one's result.
import { DatabaseSync } from './node-sqlite.js';
import { parentPort, workerData } from 'node:worker_threads';
import { BegunWrites } from './begun-writes.js';
import { retryWhileBusy } from './busy-retry.js';
import { fileMovedError, FileIdentity } from './file-identity.js';
import { SQLITE_BUSY, sqliteFailure } from './sqlite-errors.js';
import { failureOf, type ThreadFailure } from './storage-threads.js';
import { writesOn, type WriteResult, type WriteStep } from './write-statements.js';

/** The file the thread writes to, and how. */
export interface WriteThreadOptions {
  readonly path: string;
  readonly synchronous: 'NORMAL' | 'FULL';
  readonly busyTimeoutMs: number;
}

/** What the thread is started with: its options, and the cell of the writer's `BegunWrites`. */
export interface WriteThreadData extends WriteThreadOptions {
  readonly begun: BigInt64Array;
}

/** A write to run: its steps, in one transaction (`writesOn`). */
export interface WriteRequest {
  readonly id: number;
  readonly steps: readonly WriteStep[];
  /**
   * When the write is given up (`Date.now()`), unless it has committed: its busy timeout,
   * counted from when it was sent, so writes queued behind a held lock fail in that time
   * too rather than one busy timeout after another.
   */
  readonly deadline: number;
}

/** The answer to the request with the same `id`. */
export type WriteAnswer = { readonly id: number } & ({ readonly results: WriteResult[] } | { readonly failure: ThreadFailure });

// SQLite waits for another connection's lock this long at a time, and the thread tries
// again until the write's deadline: between tries, a storage shutting down can stop it.
const LOCK_WAIT_SLICE_MS = 50;

const options = workerData as WriteThreadData;
const db = new DatabaseSync(options.path, { timeout: Math.min(options.busyTimeoutMs, LOCK_WAIT_SLICE_MS) });
const file = new FileIdentity(options.path);
const begun = new BegunWrites(options.begun);
// Commits sync the WAL as the storage's own connection would (and so do its checkpoints).
db.exec(`PRAGMA synchronous = ${options.synchronous}`);
const write = writesOn(db);

function answer(request: WriteRequest): WriteAnswer {
  try {
    const { id, steps, deadline } = request;
    // A write that waited out its busy timeout behind others never begins (with none, each is tried once).
    if (options.busyTimeoutMs > 0 && Date.now() >= deadline) throw sqliteFailure(`database is locked (no turn to write within ${options.busyTimeoutMs} ms)`, SQLITE_BUSY);
    // A busy try changed nothing (its transaction, if it began, was rolled back), so it can be made again.
    const results = retryWhileBusy(() => write(steps), deadline - Date.now(), Date.now, () => begun.isStopped());
    // Committed to a file no longer at its path, the write ends with the process: its caller must not hear it stored.
    if (!file.isUnchanged()) throw fileMovedError();
    return { id, results };
  } catch (error) {
    return { id: request.id, failure: failureOf(error) };
  }
}

parentPort?.on('message', (message: WriteRequest | 'close') => {
  if (message === 'close') {
    // Posted after every write the storage sent, so each of them has been answered.
    db.close();
    parentPort?.close();
    return;
  }
  // Stopped: the storage has refused this write already, and told its caller.
  if (!begun.begin(message.id)) return;
  parentPort?.postMessage(answer(message));
});
