import { isBusy } from './sqlite-errors.js';

const PAUSE_MS = 10;
const pauseCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `attempt` again while it fails with SQLITE_BUSY, pausing between tries, until
 * `timeoutMs` has passed or `giveUp` says so; then throws the last failure. Any other
 * failure is thrown at once. Synchronous like node:sqlite itself, so only for work that
 * must finish before anything else runs on its thread: opening a file, a write thread's write.
 */
export function retryWhileBusy<T>(attempt: () => T, timeoutMs: number, now: () => number = Date.now, giveUp: () => boolean = () => false): T {
  const deadline = now() + timeoutMs;
  for (;;) {
    try {
      return attempt();
    } catch (error) {
      if (!isBusy(error) || now() >= deadline || giveUp()) throw error;
      // A synchronous pause: nothing else of this process may run while a file is opened.
      Atomics.wait(pauseCell, 0, 0, PAUSE_MS);
    }
  }
}
