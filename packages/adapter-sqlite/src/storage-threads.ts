// What the storage's threads (write-thread.ts, read-thread.ts) and the event loop share:
// where a thread's module is, how it is started, and how a failure crosses from a thread
// as plain data.
import { Worker } from 'node:worker_threads';

/**
 * The built module of a thread, even when the tests run the package from its TypeScript
 * source: Node could strip the thread's types, but not find the `.js` modules it imports
 * beside it (`pnpm test` builds first).
 */
export function threadModule(name: string): URL {
  return new URL(import.meta.url.endsWith('.ts') ? `../dist/${name}.js` : `./${name}.js`, import.meta.url);
}

/** A storage's thread, started, and a promise that settles once it has ended, closed or not. */
export interface StartedThread {
  readonly worker: Worker;
  readonly ended: Promise<void>;
}

/**
 * Starts the thread of `script`, handing each message it posts to `answer`, and its error,
 * or its end (`name` says which thread ended), to `fail`. It does not keep the process
 * alive until `ref()`: its owner refs it only while a call waits for an answer.
 */
export function startThread(script: URL, workerData: unknown, name: string, answer: (message: unknown) => void, fail: (cause: unknown) => void): StartedThread {
  // No flags of the program's (`--input-type` would stop the thread): it needs none.
  const worker = new Worker(script, { workerData, execArgv: [] });
  worker.on('message', answer);
  worker.on('error', fail);
  const ended = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      fail(new Error(`the ${name} thread ended`));
      resolve();
    });
  });
  // After the listeners: adding one for 'message' refs the thread again.
  worker.unref();
  return { worker, ended };
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
