// The reader thread of a storage (see sqlite-reader.ts): a read-only connection of its own
// that runs the long reads posted to it, one at a time, and posts back each one's rows.
import type { RecordQuery } from '@workplan/core';
import { constants, setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { DatabaseSync } from './node-sqlite.js';
import { readsOn, type QueriedRows, type RecordReads } from './record-reads.js';
import { failureOf, type ThreadFailure, type ThreadStart } from './storage-threads.js';

/** The file the thread reads, and how long a read waits for a lock (only a file being recovered holds readers). */
export interface ReadThreadOptions {
  readonly path: string;
  readonly busyTimeoutMs: number;
}

/** A query of one record table, as RecordReads runs it. */
export interface ReadRequest {
  readonly id: number;
  readonly table: string;
  readonly query: RecordQuery;
}

/** The answer to the request with the same `id`. */
export type ReadAnswer = { readonly id: number } & (QueriedRows | { readonly failure: ThreadFailure });

const { data: options, port } = workerData as ThreadStart<ReadThreadOptions>;

// The long reads sent here must not take the core from the event loop's short requests
// (finds, health checks) when both want it: the bench's target for a find's p99 beside
// searches or deep pages at scale (docs/benchmarks/README.md). On Linux a thread's nice value
// is its own, so this thread alone yields; elsewhere it would lower the whole process, so
// it is left be. A system that refuses the change costs only that: the reads run as they
// would have.
if (process.platform === 'linux') {
  try {
    setPriority(constants.priority.PRIORITY_LOW);
  } catch {
    // Left at the process's priority.
  }
}

/** The connection, once a read has opened it; read-only, so nothing this thread runs could change the file. */
let db: DatabaseSync | undefined;
let reads: ((table: string) => RecordReads) | undefined;

// Opened by the first read, not as the thread starts: a file that cannot be opened then (it
// left its path) fails that read as any read of such a file fails, and a later read opens it
// once it is back, where a failure at the start would end the thread for good.
function readsOf(table: string): RecordReads {
  if (reads === undefined) {
    db = new DatabaseSync(options.path, { readOnly: true, timeout: options.busyTimeoutMs });
    reads = readsOn(db);
  }
  return reads(table);
}

function answer({ id, table, query }: ReadRequest): ReadAnswer {
  try {
    return { id, ...readsOf(table).query(query) };
  } catch (error) {
    return { id, failure: failureOf(error) };
  }
}

port.on('message', (message: ReadRequest | 'close') => {
  if (message === 'close') {
    // Posted after every read the storage sent, so each of them has been answered.
    db?.close();
    port.close();
    return;
  }
  port.postMessage(answer(message));
});
