import { CursorExpiredError, type Change, type WorkplanClient } from '@workplan/client';
import { failureOf, type Failure } from './failure.js';
import { type ConsoleResource } from './resources.js';

/**
 * The changes colleagues make, as the console follows them (long polls of the feed, through
 * the client: the key goes in a header, which an EventSource cannot send).
 */
export interface LiveChanges {
  /**
   * Resolves once the console knows where it follows the feed from, or failed to learn it
   * for now: a list read after that misses no change, since every later one is told.
   */
  readonly ready: Promise<void>;
  /**
   * Tells `listener` each change, and `undefined` when any record may have changed unseen
   * (the following started again); returns how to stop listening.
   */
  listen(listener: (change: Change | undefined) => void): () => void;
  /** Whether changes reach the console now: false while the service is away. */
  readonly following: boolean;
  /** Tells `listener` each time the following stops or resumes; returns how to stop telling it. */
  watch(listener: (following: boolean) => void): () => void;
}

// After a failure the client does not ride out itself (finding where to start, say), the
// console starts following again after this pause.
const RESTART_PAUSE_MS = 5_000;

/** Follows the feed until `signal` aborts; a refused key goes to `refused`. */
export function followLiveChanges(client: WorkplanClient, resources: readonly ConsoleResource[], signal: AbortSignal, refused: (failure: Failure) => void): LiveChanges {
  const listeners = new Set<(change: Change | undefined) => void>();
  const tell = (change: Change | undefined) => {
    for (const listener of listeners) listener(change);
  };
  const watchers = new Set<(following: boolean) => void>();
  let following = true;
  const say = (now: boolean) => {
    if (now === following) return;
    following = now;
    for (const watcher of watchers) watcher(now);
  };
  let started = () => {};
  const ready = new Promise<void>((resolve) => {
    started = resolve;
  });
  // A function, not `signal.aborted` in place: it changes while a read is awaited.
  const stopped = () => signal.aborted;
  const follow = async () => {
    for (let again = false; !stopped(); again = true) {
      try {
        const after = await recentPlace(client, resources, signal);
        started();
        say(true);
        // A new start skipped whatever came between: the lists read everything again.
        if (again) tell(undefined);
        const follower = client.follow({ signal, after, onRetry: () => { say(false); }, onResume: () => { say(true); } });
        for await (const change of follower) tell(change);
        // The client follows until the signal aborts; should it end otherwise, start again later.
        await pauseUnlessAborted(RESTART_PAUSE_MS, signal);
      } catch (error) {
        started();
        if (stopped()) return;
        const failure = failureOf(error);
        if (failure.unauthorized === true) {
          refused(failure);
          return;
        }
        // An expired place starts again at once; anything else after a pause, said.
        if (error instanceof CursorExpiredError) continue;
        say(false);
        await pauseUnlessAborted(RESTART_PAUSE_MS, signal);
      }
    }
  };
  void follow();
  return {
    ready,
    listen: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get following() {
      return following;
    },
    watch: (watcher) => {
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
  };
}

/**
 * A place in the feed no later than its end now: the last change of the record written
 * last, or the start when there is no record. The feed has no "from now on", and reading it
 * from the start to its end would fetch every change ever kept. Changes after that place
 * that the lists already show are harmless: each only makes a list read itself again.
 */
async function recentPlace(client: WorkplanClient, resources: readonly ConsoleResource[], signal: AbortSignal): Promise<string | undefined> {
  const newest = await Promise.all(
    resources.map(async (resource) => {
      const records = resource.recordsOf(client);
      const [record] = (await records.listPage({ sort: '-updatedAt', limit: 1 }, { signal })).records;
      return record === undefined ? [] : [{ records, record }];
    }),
  );
  const [latest] = newest.flat().toSorted((one, other) => other.record.updatedAt.localeCompare(one.record.updatedAt));
  if (latest === undefined) return undefined;
  return (await latest.records.history(latest.record.id, { signal })).at(-1)?.id;
}

function pauseUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
