import { WorkplanError, type AbortSignalLike, type RecordQuery } from '@workplan/core';
import type { DatabaseSync } from 'node:sqlite';
import type { MessagePort, Worker } from 'node:worker_threads';
import { readsOn, type QueriedRows } from './record-reads.js';
import { errorOf, startThread, threadModule } from './storage-threads.js';
// `import type`: the thread's module opens its connection when it loads.
import type { ReadAnswer, ReadRequest, ReadThreadOptions } from './read-thread.js';

/**
 * Where a storage's long reads run (the repository says which reads are long). A rejection
 * carries node:sqlite's error (its `errcode` read by sqlite-errors.ts), or a WorkplanError
 * when the reader itself is gone.
 */
export interface SqliteReader {
  /** A page of `query` on `table`, as rows; `signal` calls the read off while it has not begun. */
  query(table: string, query: RecordQuery, signal?: AbortSignalLike): Promise<QueriedRows>;
  /** Ends the reader after the reads already sent, which still get their answers. */
  close(): Promise<void>;
  /** Whether it can take reads. */
  isWorking(): boolean;
}

/**
 * Long reads on the connection the other reads use, before the call returns: for a
 * `:memory:` database, which another connection would not see, and for repositories made
 * over a caller's own connection (which may hold a transaction their reads belong to).
 */
export function sameConnectionReader(db: DatabaseSync): SqliteReader {
  const reads = readsOn(db);
  return {
    // Async, so a read that throws rejects; it still runs before the call returns.
    query: async (table, query) => reads(table).query(query),
    close: async () => undefined,
    isWorking: () => db.isOpen,
  };
}

const READ_THREAD = threadModule('read-thread');

interface WaitingRead {
  readonly request: ReadRequest;
  readonly resolve: (rows: QueriedRows) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Long reads on a read-only connection of their own in a worker thread, run there one at a
 * time, in the order sent.
 *
 * Why: node:sqlite is synchronous, so a read on the event loop holds it until its last row.
 * A search may walk a whole index to fill its page, and a page deep in a plain list walks
 * every record it skips (OFFSET); a few clients sending such reads would hold up every other
 * request of the process, finds and health checks among them. In this thread they wait for
 * each other instead, while the event loop serves the rest (figures in
 * docs/benchmarks/README.md). The short reads stay on the event loop, where they are
 * answered without a hop between threads.
 *
 * Why one thread, one read at a time: the long reads are work for a processor, and a
 * second thread would take the one the event loop runs on. And a read waits here, not in
 * the thread, until it is its turn: one called off meanwhile (its request was answered by
 * its deadline) is dropped, so the thread never works through a backlog nobody waits for.
 */
export class ThreadReader implements SqliteReader {
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #queue: WaitingRead[] = [];
  /** The read the thread is running, if any. */
  #running: WaitingRead | undefined;
  /** Settles once the thread has ended, closed or not. */
  readonly #ended: Promise<void>;
  #nextId = 0;
  #closed = false;
  /** Why the thread can take no more reads, once it cannot. */
  #gone: unknown;

  constructor(options: ReadThreadOptions, { script = READ_THREAD }: { script?: URL | undefined } = {}) {
    // Only a read waiting for its answer keeps the process alive (see #runNext).
    const thread = startThread(script, options, 'read', (answer) => {
      this.#settle(answer as ReadAnswer);
    }, (cause) => {
      this.#fail(cause);
    });
    this.#worker = thread.worker;
    this.#port = thread.port;
    this.#ended = thread.ended;
  }

  query(table: string, query: RecordQuery, signal?: AbortSignalLike): Promise<QueriedRows> {
    if (this.#closed) return Promise.reject(new Error('the storage is closed'));
    if (this.#gone !== undefined) return Promise.reject(WorkplanError.storageUnavailable(this.#gone));
    return new Promise((resolve, reject) => {
      const callOff = (): void => {
        const at = this.#queue.indexOf(read);
        if (at < 0) return;
        this.#queue.splice(at, 1);
        const reason: unknown = signal?.reason;
        reject(reason instanceof Error ? reason : new Error('the read was called off', { cause: reason }));
      };
      const settled = (): void => {
        signal?.removeEventListener('abort', callOff);
      };
      const read: WaitingRead = {
        request: { id: (this.#nextId += 1), table, query },
        resolve: (rows) => {
          settled();
          resolve(rows);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      };
      signal?.addEventListener('abort', callOff, { once: true });
      this.#queue.push(read);
      this.#runNext();
    });
  }

  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      // Whoever awaits the close is kept until the thread has ended.
      this.#worker.ref();
      this.#runNext();
    }
    await this.#ended;
  }

  isWorking(): boolean {
    return !this.#closed && this.#gone === undefined;
  }

  /** Sends the next read waiting, once the thread is free; once closed and none waits, ends the thread. */
  #runNext(): void {
    if (this.#running !== undefined || this.#gone !== undefined) return;
    const next = this.#queue.shift();
    if (next === undefined) {
      if (this.#closed) this.#port.postMessage('close');
      else this.#worker.unref();
      return;
    }
    this.#running = next;
    this.#worker.ref();
    try {
      this.#port.postMessage(next.request);
    } catch (error) {
      // A query that cannot be sent: nothing runs, and nothing waits for an answer.
      this.#running = undefined;
      next.reject(error instanceof Error ? error : new Error(String(error)));
      this.#runNext();
    }
  }

  #settle(answer: ReadAnswer): void {
    const running = this.#running;
    if (running?.request.id !== answer.id) return;
    this.#running = undefined;
    if ('failure' in answer) running.reject(errorOf(answer.failure));
    else running.resolve({ rows: answer.rows, total: answer.total });
    this.#runNext();
  }

  /** The thread failed or ended: the read it ran, every one waiting, and any sent later, is an outage. */
  #fail(cause: unknown): void {
    if (!this.#closed) this.#gone ??= cause;
    const waiting = [...(this.#running === undefined ? [] : [this.#running]), ...this.#queue.splice(0)];
    this.#running = undefined;
    for (const read of waiting) read.reject(WorkplanError.storageUnavailable(cause));
  }
}
