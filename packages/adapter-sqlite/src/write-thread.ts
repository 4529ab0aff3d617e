// The write thread of a storage (see sqlite-writer.ts): a connection of its own that runs
// the statements posted to it, one after another, and posts back each one's result.
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { writesOn, type WriteMethod, type WriteResult } from './write-statements.js';

/** The file the thread writes to, and how. */
export interface WriteThreadOptions {
  readonly path: string;
  readonly synchronous: 'NORMAL' | 'FULL';
  readonly busyTimeoutMs: number;
}

/** A statement to run: `run` answers the count of rows changed, `get` the first row as an array. */
export interface WriteRequest {
  readonly id: number;
  readonly method: WriteMethod;
  readonly sql: string;
  readonly params: readonly SQLInputValue[];
}

/** What node:sqlite put on an error: the message, and the codes the repositories read. */
export interface WriteFailure {
  readonly message: string;
  readonly code: unknown;
  readonly errcode: unknown;
  readonly errstr: unknown;
}

/** The answer to the request with the same `id`. */
export type WriteAnswer = { readonly id: number } & (WriteResult | { readonly failure: WriteFailure });

const options = workerData as WriteThreadOptions;
const db = new DatabaseSync(options.path, { timeout: options.busyTimeoutMs });
// Commits sync the WAL as the storage's own connection would (and so do its checkpoints).
db.exec(`PRAGMA synchronous = ${options.synchronous}`);
const write = writesOn(db);

function answer(request: WriteRequest): WriteAnswer {
  try {
    return { id: request.id, ...write(request.method, request.sql, request.params) };
  } catch (error) {
    const { message, code, errcode, errstr } = error as Error & Partial<Record<'code' | 'errcode' | 'errstr', unknown>>;
    return { id: request.id, failure: { message, code, errcode, errstr } };
  }
}

parentPort?.on('message', (message: WriteRequest | 'close') => {
  if (message === 'close') {
    // Posted after every write the storage sent, so each of them has been answered.
    db.close();
    parentPort?.close();
    return;
  }
  parentPort?.postMessage(answer(message));
});
