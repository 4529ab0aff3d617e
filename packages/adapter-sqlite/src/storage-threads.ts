// What the storage's threads (write-thread.ts, read-thread.ts) and the event loop share:
// where a thread's module is, and how a failure crosses from a thread as plain data.

/**
 * The built module of a thread, even when the tests run the package from its TypeScript
 * source: Node could strip the thread's types, but not find the `.js` modules it imports
 * beside it (`pnpm test` builds first).
 */
export function threadModule(name: string): URL {
  return new URL(import.meta.url.endsWith('.ts') ? `../dist/${name}.js` : `./${name}.js`, import.meta.url);
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
