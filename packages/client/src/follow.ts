import { pause } from './call-policies.js';
import { type Change, type ChangesOptions, type ChangesPage } from './changes.js';
import { WorkplanClientError } from './errors.js';

/** Where to follow the feed from, and how. */
export interface FollowOptions {
  /** The id of the last change already handled; from the first change kept when left out. */
  readonly after?: string | undefined;
  /** Ends the following: the iteration finishes, without an error. */
  readonly signal?: AbortSignal;
  /** Changes per read, 1 to 1000 (the service's default when left out). */
  readonly limit?: number;
  /** Seconds each long poll may be held, 1 to 30; 30 when left out. */
  readonly wait?: number;
  /** Told before each pause after a failed read, say to show "reconnecting in 4 s". */
  readonly onRetry?: (retry: FollowRetry) => void;
  /** Told when a read succeeds after failed ones: the following goes on from where it was, nothing missed. */
  readonly onResume?: () => void;
}

/** A read that failed and will be tried again: how many in a row, the pause before the next, and why. */
export interface FollowRetry {
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: unknown;
}

const LONGEST_WAIT_SECONDS = 30;
// Beyond its wait, how long a read may take before it counts as failed: a connection that
// died without a word would otherwise hold the follower for ever.
const READ_TIME_LIMIT_MS = 30_000;
const FIRST_PAUSE_MS = 500;
// An empty answer sooner than this did not wait (a proxy or a server that does not hold long
// polls, or one shutting down): the next read waits out the rest, so a follower never spins.
const SHORTEST_EMPTY_READ_MS = 1_000;
const LONGEST_PAUSE_MS = 30_000;
// After a failure, reads are not held long, so that the follower learns soon that the service is back.
const WAIT_AFTER_FAILURE_SECONDS = 1;

/**
 * Every change after `after`, in commit order, read with long polls, for as long as the
 * caller iterates and `signal` does not abort. A read that fails for a passing reason (no
 * network, a time-out, a 5xx, a 429) is tried again after a pause that grows, or the
 * answer's `Retry-After`; anything else ends the iteration with its error, such as a
 * `CursorExpiredError` when the changes after `after` are no longer kept.
 */
export async function* followChanges(read: (options: ChangesOptions) => Promise<ChangesPage>, options: FollowOptions = {}): AsyncGenerator<Change, void> {
  const { signal, limit, wait = LONGEST_WAIT_SECONDS, onRetry, onResume } = options;
  let after = options.after;
  let failures = 0;
  // A function, not a test of `signal.aborted` in place: it changes while a read is awaited.
  const stopped = () => signal?.aborted === true;
  /** Pauses `ms` unless the signal aborts; whether to go on. */
  const paused = async (ms: number) => {
    try {
      await pause(ms, signal);
      return true;
    } catch (reason) {
      if (stopped()) return false;
      throw reason;
    }
  };
  while (!stopped()) {
    let page: ChangesPage;
    const startedAt = Date.now();
    try {
      page = await read({ after, limit, wait: failures > 0 ? Math.min(wait, WAIT_AFTER_FAILURE_SECONDS) : wait, timeoutMs: READ_TIME_LIMIT_MS, retry: false, ...(signal === undefined ? {} : { signal }) });
    } catch (error) {
      if (stopped()) return;
      if (!isPassing(error)) throw error;
      failures += 1;
      const delayMs = pauseAfter(failures, error);
      onRetry?.({ attempt: failures, delayMs, error });
      if (!(await paused(delayMs))) return;
      continue;
    }
    if (failures > 0) onResume?.();
    failures = 0;
    for (const change of page.changes) {
      after = change.id;
      yield change;
    }
    after = page.next ?? after;
    const early = SHORTEST_EMPTY_READ_MS - (Date.now() - startedAt);
    if (page.changes.length === 0 && early > 0 && !(await paused(early))) return;
  }
}

/** Whether a failed read may succeed if tried again: the service or the way to it was down or busy. */
function isPassing(error: unknown): boolean {
  if (error instanceof WorkplanClientError) return error.status >= 500 || error.status === 429 || error.status === 408;
  // fetch rejects with a TypeError when the network fails; a call's time limit with a TimeoutError.
  return error instanceof TypeError || (error instanceof DOMException && error.name === 'TimeoutError');
}

/**
 * The answer's `Retry-After` when it gave one; else a pause doubling with each failure in a
 * row, up to a limit, half of it random so that followers cut off together do not all come
 * back at once.
 */
function pauseAfter(failures: number, error: unknown): number {
  if (error instanceof WorkplanClientError && error.retryAfterSeconds !== undefined) return error.retryAfterSeconds * 1000;
  const ceiling = Math.min(FIRST_PAUSE_MS * 2 ** (failures - 1), LONGEST_PAUSE_MS);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}
