import { WorkplanError } from '@workplan/core';
import type { DatabaseSync } from 'node:sqlite';
import type { MessagePort, Worker } from 'node:worker_threads';
import { BegunWrites } from './begun-writes.js';
import { errorOf, startThread, threadModule } from './storage-threads.js';
import { writesOn, type WriteResult, type WriteStep } from './write-statements.js';
import { type WriteAnswer, type WriteRequest, type WriteThreadData, type WriteThreadOptions } from './write-messages.js';

/**
 * Where a storage's writes run. A rejection carries node:sqlite's error (its `errcode`
 * read by sqlite-errors.ts), or a WorkplanError when the writer itself is gone.
 */
export interface SqliteWriter {
  /**
   * Runs a write's steps as one (a transaction, or a savepoint in one shared with other
   * writes), each only when the one before changed a row, and answers, once committed, the
   * result of each step run (`writesOn`).
   */
  write(steps: readonly WriteStep[]): Promise<WriteResult[]>;
  /** Ends the writer after the writes already sent, which still get their answers; resolves once they have. */
  close(): Promise<void>;
  /** Whether it can take writes. */
  isWorking(): boolean;
  /**
   * From now on no write begins: those sent and not yet begun reject at once with
   * `storageUnavailable`, none of them having reached the file, and so do later ones; a
   * write in progress still gets its answer (one waiting for a lock gives up soon, unwritten).
   */
  stopWrites(): void;
}

/** Why a write was refused after `stopWrites`, for the logs. */
const WRITES_STOPPED = new Error('writes were stopped (the storage is closing) before this one began');

/**
 * Writes on the connection the reads use, each done before the call returns. For a
 * `:memory:` database, which another connection would not see, and for repositories made
 * over a caller's own connection (which may hold a transaction their writes belong to).
 */
export function sameConnectionWriter(db: DatabaseSync): SqliteWriter {
  const write = writesOn(db);
  let stopped = false;
  // Async, so a write that throws rejects; it still runs before the call returns.
  return {
    write: async (steps) => {
      if (stopped) throw WorkplanError.storageUnavailable(WRITES_STOPPED);
      return write(steps);
    },
    close: async () => undefined,
    isWorking: () => db.isOpen,
    stopWrites: () => {
      stopped = true;
    },
  };
}

const WRITE_THREAD = threadModule('write-thread');

/**
 * Writes on a connection of their own in a worker thread, sent there in order and run
 * there in order, those queued together in one transaction, each (all its steps) under a
 * savepoint of its own, and answered once that transaction has committed (group-commit.ts).
 *
 * Why: node:sqlite is synchronous, so a write on the event loop holds it for the whole
 * commit, and every commit that takes the WAL past 1000 pages also checkpoints it, with
 * an fsync of both files, and every read waiting meanwhile waited with it. With the writes
 * in this thread, finds on the event loop run beside them: in WAL mode readers wait for no
 * writer (figures in docs/benchmarks/README.md).
 *
 * One limit: a thread that dies between a commit and its answer (it runs only these
 * statements, so a crash of node:sqlite itself or memory running out) leaves that write
 * in the file though its caller was told `storageUnavailable`.
 */
export class ThreadWriter implements SqliteWriter {
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #waiting = new Map<number, { resolve: (results: WriteResult[]) => void; reject: (error: unknown) => void }>();
  /** Settles once the thread has ended, closed or not. */
  readonly #ended: Promise<void>;
  #nextId = 0;
  #closed = false;
  /** Why the thread can take no more writes, once it cannot. */
  #gone: unknown;

  readonly #busyTimeoutMs: number;
  readonly #begun: BegunWrites;

  /** `script` and `begun` for tests: another thread, and a record of begun writes they can read. */
  constructor(options: WriteThreadOptions, { script = WRITE_THREAD, begun = new BegunWrites() }: { script?: URL | undefined; begun?: BegunWrites | undefined } = {}) {
    this.#busyTimeoutMs = options.busyTimeoutMs;
    this.#begun = begun;
    const workerData: WriteThreadData = { ...options, begun: this.#begun.cell };
    // Only a write waiting for its answer keeps the process alive (see #send).
    const thread = startThread(script, workerData, 'write', (answers) => {
      for (const answer of answers as WriteAnswer[]) this.#settle(answer);
    }, (cause) => {
      this.#fail(cause);
    });
    this.#worker = thread.worker;
    this.#port = thread.port;
    this.#ended = thread.ended;
  }

  write(steps: readonly WriteStep[]): Promise<WriteResult[]> {
    if (this.#closed) return Promise.reject(new Error('the storage is closed'));
    if (this.#gone !== undefined) return Promise.reject(WorkplanError.storageUnavailable(this.#gone));
    if (this.#begun.isStopped()) return Promise.reject(WorkplanError.storageUnavailable(WRITES_STOPPED));
    const id = (this.#nextId += 1);
    const request: WriteRequest = { id, steps, deadline: Date.now() + this.#busyTimeoutMs };
    return new Promise((resolve, reject) => {
      if (this.#waiting.size === 0) this.#worker.ref();
      this.#waiting.set(id, { resolve, reject });
      try {
        this.#port.postMessage(request);
      } catch (error) {
        // A value that cannot be sent: nothing was written, and nothing waits for an answer.
        this.#settle({ id, failure: { message: String(error), code: undefined, errcode: undefined, errstr: undefined } });
      }
    });
  }

  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      // Whoever awaits the close is kept until the thread has ended, which it does at once.
      this.#worker.ref();
      this.#port.postMessage('close');
    }
    await this.#ended;
  }

  isWorking(): boolean {
    return !this.#closed && this.#gone === undefined;
  }

  stopWrites(): void {
    const lastBegun = this.#begun.stop();
    for (const [id, waiting] of this.#waiting) {
      if (id <= lastBegun) continue;
      this.#waiting.delete(id);
      waiting.reject(WorkplanError.storageUnavailable(WRITES_STOPPED));
    }
    if (this.#waiting.size === 0 && !this.#closed) this.#worker.unref();
  }

  #settle(answer: WriteAnswer): void {
    const waiting = this.#waiting.get(answer.id);
    this.#waiting.delete(answer.id);
    // A closing thread stays referenced: close() is awaited until it has ended.
    if (this.#waiting.size === 0 && !this.#closed) this.#worker.unref();
    if (waiting === undefined) return;
    if ('failure' in answer) waiting.reject(errorOf(answer.failure));
    else waiting.resolve(answer.results);
  }

  /** The thread failed or ended: every write still waiting, and any sent later, is an outage. */
  #fail(cause: unknown): void {
    if (!this.#closed) this.#gone ??= cause;
    for (const waiting of this.#waiting.values()) waiting.reject(WorkplanError.storageUnavailable(cause));
    this.#waiting.clear();
  }
}
