import { sequenceOf, type Change } from './change.js';
import { type AbortSignalLike, type ChangeLog } from './ports.js';

/** What one read of the tail asks of the log: as much as a follower may ask in one page. */
const TAIL_PAGE = 1000;

/**
 * How long the reader goes on waiting once every follower it served has its changes: those
 * come back for the next ones at once (a stream) or after a round trip (a long poll), and
 * one that finds the reader still there waits without a read of its own.
 */
const LINGER_MS = 1000;

/** How long the reader waits for a change while followers wait (each ends its own wait). */
const WAITED_MS = 30_000;

/** A follower waiting at the end of the log: after which change, for how many at most. */
interface Follower {
  readonly after: number;
  readonly limit: number;
  /** Ends its wait with the changes read for it, `[]` (its time is out, or it was called off), or `undefined` (the shared read failed). */
  readonly settle: (changes: Change[] | undefined) => void;
}

/**
 * The end of a change log as one reader of a process follows it for every follower waiting
 * there (event streams, long polls): however many wait, each new change is read from the
 * storage once, and every follower is handed what follows its own `after` from that read.
 *
 * Invariant: while the reader runs (`isAt`), its next read starts after `#at` and is made
 * as soon as the log may hold a change after `#at`; a read from `from` is handed only to
 * the followers at or past `from`, for whom it holds every change that follows them. So a
 * follower at `#at` may wait without reading the log itself, and none is handed a page with
 * a gap. A follower behind `#at` reads up on its own (the feed) and joins once it has read
 * everything; one that joins below `#at` (a read of its own that raced a shared one) moves
 * `#at` back, and the reader reads again from there.
 *
 * The changes handed out are the same objects for every follower: they are read, not changed.
 * Nothing is queued for a follower: it is handed one page, at most its `limit`, and is
 * gone until it asks again. A slow one (a stream whose client reads slowly) is not waited
 * for and holds no memory here; when it asks again from behind, it reads up on its own.
 * When the shared read fails, every follower is let go with `undefined` and reads on its
 * own, so it meets the failure (or `cursorExpired`) exactly as a read of its own would.
 */
export class ChangeTail {
  readonly #log: ChangeLog;
  readonly #followers = new Set<Follower>();
  /** After which change the reader reads next; undefined while no reader runs. */
  #at: number | undefined;
  /** Ends the reader's wait early: a follower joined below `#at`, or the last one left unserved. */
  #wake: AbortController | undefined;
  #woken = false;

  constructor(log: ChangeLog) {
    this.#log = log;
  }

  /** Whether the reader runs from `after`: a follower there may wait for it without a read of its own. */
  isAt(after: number): boolean {
    return this.#at === after;
  }

  /**
   * Waits up to `waitMs` for the changes after `after` (at most `limit`) from the shared
   * read; resolves them, `[]` when the time is out or `signal` aborts, `undefined` when the
   * shared read failed. The caller has read the log up to `after` (or `isAt(after)`).
   */
  follow(after: number, limit: number, waitMs: number, signal?: AbortSignalLike): Promise<Change[] | undefined> {
    return new Promise((resolve) => {
      const follower: Follower = {
        after,
        limit,
        settle: (changes) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', leave);
          this.#followers.delete(follower);
          resolve(changes);
        },
      };
      const leave = (): void => {
        follower.settle([]);
        // The last one left unserved (gone, or its time out): nobody is coming back for the reader.
        if (this.#followers.size === 0) this.#wakeReader();
      };
      const timer = setTimeout(leave, waitMs);
      signal?.addEventListener('abort', leave, { once: true });
      this.#followers.add(follower);
      this.#join(after);
    });
  }

  #join(after: number): void {
    if (this.#at === undefined) {
      this.#at = after;
      void this.#read();
    } else if (after < this.#at) {
      this.#at = after;
      this.#wakeReader();
    }
  }

  #wakeReader(): void {
    if (this.#at === undefined) return;
    this.#woken = true;
    this.#wake?.abort();
  }

  /** The reader: waits for a change after `#at`, reads once, hands it out; stops when it finds no follower to serve. */
  async #read(): Promise<void> {
    for (let served = false; ; ) {
      if (!this.#woken) {
        this.#wake = new AbortController();
        await this.#log.waitAfter(this.#at ?? 0, served ? LINGER_MS : WAITED_MS, { signal: this.#wake.signal });
        this.#wake = undefined;
      }
      this.#woken = false;
      if (this.#followers.size === 0) break;
      const from = this.#at ?? 0;
      let changes: Change[];
      try {
        changes = await this.#log.read(from, TAIL_PAGE);
      } catch {
        for (const follower of this.#followers) follower.settle(undefined);
        break;
      }
      const last = changes.at(-1);
      // Moved back while it read: it reads again from there.
      if (last !== undefined && this.#at === from) this.#at = sequenceOf(last.id);
      served = this.#handOut(from, changes);
    }
    this.#at = undefined;
  }

  /** Hands each follower at or past `from` the changes after its own `after`; true when none is left waiting. */
  #handOut(from: number, changes: Change[]): boolean {
    if (changes.length === 0) return false;
    for (const follower of this.#followers) {
      if (follower.after < from) continue;
      const start = changes.findIndex((change) => sequenceOf(change.id) > follower.after);
      if (start !== -1) follower.settle(changes.slice(start, start + follower.limit));
    }
    return this.#followers.size === 0;
  }
}
