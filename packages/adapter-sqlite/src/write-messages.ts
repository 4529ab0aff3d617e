// What the storage and its write thread (write-thread.ts) send each other.
import { type ThreadFailure } from './storage-threads.js';
import { type WriteResult, type WriteStep } from './write-statements.js';

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

/** A write to run: its steps, under a savepoint of its own in its commit's transaction (`writesOn`). */
export interface WriteRequest {
  readonly id: number;
  readonly steps: readonly WriteStep[];
  /**
   * When the write is given up (`Date.now()`) if it is still waiting for the file's write
   * lock: its busy timeout, counted from when it was sent, so writes queued behind a held
   * lock fail in that time too rather than one busy timeout after another. A write taken
   * into a commit whose lock is held has no more to wait for.
   */
  readonly deadline: number;
}

/** The answer to the request with the same `id`; the thread posts those of one commit together, as an array. */
export type WriteAnswer = { readonly id: number } & ({ readonly results: WriteResult[] } | { readonly failure: ThreadFailure });
