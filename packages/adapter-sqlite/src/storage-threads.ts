// What the storage's threads (write-thread.ts, read-thread.ts) and the event loop share:
// where a thread's module is, how it is started, and how a failure crosses from a thread
// as plain data.
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';

/**
 * The built module of a thread, even when the tests run the package from its TypeScript
 * source: Node could strip the thread's types, but not find the `.js` modules it imports
 * beside it (`pnpm test` builds first).
 */
export function threadModule(name: string): URL {
  return new URL(import.meta.url.endsWith('.ts') ? `../dist/${name}.js` : `./${name}.js`, import.meta.url);
}

/** A storage's thread, started: its port to post to, and a promise that settles once it has ended, closed or not. */
export interface StartedThread {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly ended: Promise<void>;
}

/** What a storage's thread is started with: its data, and its end of the port to the storage. */
export interface ThreadStart<T> {
  readonly data: T;
  readonly port: MessagePort;
}

/**
 * Starts the thread of `script` with `data`, handing each message it posts to `answer`, and
 * its error, or its end (`name` says which thread ended), to `fail`. It does not keep the
 * process alive until `worker.ref()`: its owner refs it only while a call waits for an answer.
 *
 * The storage and its thread talk on a port of their own, not on the worker's: Node posts
 * there too (under `node --watch`, which `pnpm dev` runs, each module a thread imports is
 * reported on it), and a message that is not an answer must never be taken for one.
 */
export function startThread(script: URL, data: unknown, name: string, answer: (message: unknown) => void, fail: (cause: unknown) => void): StartedThread {
  const { port1: port, port2: threadPort } = new MessageChannel();
  const workerData: ThreadStart<unknown> = { data, port: threadPort };
  // No flags of the program's (`--input-type` would stop the thread): it needs none.
  const worker = new Worker(script, { workerData, transferList: [threadPort], execArgv: [] });
  port.on('message', answer);
  // The worker, not the port, keeps the process alive, and only while its owner refs it.
  port.unref();
  worker.on('error', fail);
  const ended = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      fail(new Error(`the ${name} thread ended`));
      resolve();
    });
  });
  worker.unref();
  return { worker, port, ended };
}

/** What node:sqlite put on an error: the message, and the codes the repositories read. */
export interface ThreadFailure {
  readonly message: string;
  readonly code: unknown;
  readonly errcode: unknown;
  readonly errstr: unknown;
}

/** A thread's error as data a message can carry (an Error loses its codes on the way). */
export function failureOf(error: unknown): ThreadFailure {
  const { message, code, errcode, errstr } = error as Error & Partial<Record<'code' | 'errcode' | 'errstr', unknown>>;
  return { message, code, errcode, errstr };
}

/** node:sqlite's error again, on the event loop, with the codes the repositories read. */
export function errorOf(failure: ThreadFailure): Error {
  const { message, code, errcode, errstr } = failure;
  return Object.assign(new Error(message), { code, errcode, errstr });
}
