import { sequenceOf, type Change } from './change.js';
import { type AbortSignalLike, type ChangeLog, type GiveWay } from './ports.js';

/**
 * How long the reader goes on waiting once every follower it served has its changes: those
 * come back for the next ones at once (a stream) or after a round trip (a long poll), and
 * one that finds the reader still there waits without a read of its own.
 */
const LINGER_MS = 1000;

/**
 * Followers handed their changes in one turn of the event loop; then the reader gives way
 * (`GiveWay`) before the next ones, so a hand-out to thousands (each of whom writes to its
 * socket) does not hold up the writes and requests that come meanwhile.
 */
export const FOLLOWERS_PER_TURN = 10;

/** A follower waiting at the end of the log: after which change, for how many at most, until when (`Date.now()`). */
interface Follower {
  readonly after: number;
  readonly limit: number;
  readonly until: number;
  /** Ends its wait with the changes read for it, `[]` (its time is out, or it was called off), or `undefined` (the shared read failed). */
  readonly settle: (changes: Change[] | undefined) => void;
}

/**
 * The end of a change log as one reader of a process follows it for every follower waiting
 * there (event streams, long polls): however many wait, each new change is read from the
 * storage once, and every follower is handed what follows its own `after` from that read.
 *
 * Invariant: while the reader runs (`isAt`), its next read starts after `#at` and is made
 * as soon as the log may hold a change after `#at` and the hand-out under way is over; a read from `from` is handed only to
 * the followers at or past `from`, for whom it holds every change that follows them. So a
 * follower at `#at` may wait without reading the log itself, and none is handed a page with
 * a gap. A follower behind `#at` reads up on its own (the feed) and joins once it has read
 * everything; one that joins below `#at` (a read of its own that raced a shared one) moves
 * `#at` back, and the reader reads again from there.
 *
 * A hand-out goes to the followers waiting when its read came back, `FOLLOWERS_PER_TURN` a
 * turn, and the reader reads again only once it is over. So the changes committed while
 * thousands are handed one are read once, together, and each follower's next page holds
 * them all: a stream writes them to its socket at once, not one write per change. A follower
 * that comes back meanwhile waits at `#at` for that next read.
 *
 * The changes handed out are the same objects for every follower: they are read, not changed.
 * Nothing is queued for a follower: it is handed one page, at most its `limit`, and is
 * gone until it asks again. A slow one (a stream whose client reads slowly) is not waited
 * for and holds no memory here. One that asks again from behind, within the last shared
 * read (as a long poll answered a change ago does, or a stream that waited for its socket),
 * is served from that read (`recent`), kept `LINGER_MS`; one further behind reads on its own.
 * A prune removes changes older than the retention (a day at the least, in the service), so
 * what a read made less than `LINGER_MS` ago holds is still kept: a follower served from it
 * meets the same `cursorExpired` as from a read of its own, unless `prune` is called with a
 * `before` under `LINGER_MS` ago.
 * When the shared read or its wait fails, every follower is let go with `undefined` and
 * reads on its own, so it meets the failure (or `cursorExpired`) exactly as a read of its own
 * would; the reader stops, and the next follower starts another.
 */
export class ChangeTail {
  readonly #log: ChangeLog;
  /** What one read asks of the log: the most a follower may ask in one page. */
  readonly #page: number;
  readonly #giveWay: GiveWay;
  readonly #followers = new Set<Follower>();
  /** After which change the reader reads next; undefined while no reader runs. */
  #at: number | undefined;
  /**
   * Ends the reader's wait early: a follower joined below `#at` or with less time, or the
   * last one left unserved. Undefined while it reads or hands out: what came meanwhile is
   * looked at once that is over (a follower out of time is let go then, and a reader with
   * none left lingers `LINGER_MS` before it stops).
   */
  #wake: Wake | undefined;
  /** When the reader's wait ends at the latest (`Date.now()`). */
  #waitUntil = -Infinity;
  /** `#at` was moved back: the reader reads from there before it waits again. */
  #rewound = false;
  /** The last shared read that found changes: from where, what, when (`Date.now()`). */
  #last: { readonly from: number; readonly changes: Change[]; readonly readAt: number } | undefined;

  constructor(log: ChangeLog, page: number, giveWay: GiveWay) {
    this.#log = log;
    this.#page = page;
    this.#giveWay = giveWay;
  }

  /** Whether the reader runs from `after`: a follower there may wait for it without a read of its own. */
  isAt(after: number): boolean {
    return this.#at === after;
  }

  /**
   * The changes after `after` (at most `limit`) from the last shared read, when that read
   * started at or before `after`, went past it, and was made less than `LINGER_MS` ago;
   * otherwise undefined (the follower reads on its own).
   */
  recent(after: number, limit: number): Change[] | undefined {
    const last = this.#last;
    if (last === undefined || after < last.from || Date.now() - last.readAt >= LINGER_MS) return undefined;
    const start = last.changes.findIndex((change) => sequenceOf(change.id) > after);
    return start === -1 ? undefined : last.changes.slice(start, start + limit);
  }

  /**
   * Waits up to `waitMs` (or until the hand-out under way when it is out is over) for the
   * changes after `after` (at most `limit`) from the shared read; resolves them, `[]` when the time is out or `signal` aborts, `undefined` when the
   * shared read failed. The caller has read the log up to `after` (or `isAt(after)`).
   */
  follow(after: number, limit: number, waitMs: number, signal?: AbortSignalLike): Promise<Change[] | undefined> {
    return new Promise((resolve) => {
      const follower: Follower = {
        after,
        limit,
        until: Date.now() + waitMs,
        settle: (changes) => {
          signal?.removeEventListener('abort', leave);
          this.#followers.delete(follower);
          resolve(changes);
        },
      };
      const leave = (): void => {
        follower.settle([]);
        // The last one left unserved: nobody is coming back for the reader.
        if (this.#followers.size === 0) this.#wake?.abort();
      };
      signal?.addEventListener('abort', leave, { once: true });
      this.#followers.add(follower);
      this.#join(follower);
    });
  }

  #join(follower: Follower): void {
    if (this.#at === undefined) {
      this.#at = follower.after;
      void this.#read();
    } else if (follower.after < this.#at) {
      this.#at = follower.after;
      this.#rewound = true;
      this.#wake?.abort();
    } else if (follower.until < this.#waitUntil) {
      // Its time ends before the reader's wait does: the reader times its wait again.
      this.#wake?.abort();
    }
  }

  /**
   * The reader: waits for a change after `#at` (until the first follower's time is out, or
   * `LINGER_MS` once it served them all), reads once, hands it out; stops when a wait ends
   * with no follower, but for a change that comes while it lingers. The followers' times
   * are kept here, so that the wait of them all is one timer.
   */
  async #read(): Promise<void> {
    // Until when it goes on once it has served every follower (none came back yet).
    let lingerUntil: number | undefined;
    try {
      for (;;) {
        const toRead = this.#rewound || (await this.#waitForChange(lingerUntil));
        this.#letGoTimedOut();
        const lingering = lingerUntil !== undefined && Date.now() < lingerUntil;
        // Followers served a change ago are on their way back: a change now is read for them.
        if (this.#followers.size === 0 && !(lingering && toRead)) break;
        if (this.#followers.size > 0) lingerUntil = undefined;
        if (!toRead) continue;
        this.#rewound = false;
        const from = this.#at ?? 0;
        const changes = await this.#log.read(from, this.#page);
        const last = changes.at(-1);
        if (last !== undefined) this.#last = { from, changes, readAt: Date.now() };
        // Moved back while it read: it reads again from there.
        if (last !== undefined && this.#at === from) this.#at = sequenceOf(last.id);
        await this.#handOut(from, changes);
        if (this.#followers.size === 0) lingerUntil ??= Date.now() + LINGER_MS;
      }
    } catch {
      // The storage failed, waiting or reading: each follower reads on its own and meets it.
      for (const follower of this.#followers) follower.settle(undefined);
    }
    // In the same turn as the last look at the followers: one that joins later starts a reader.
    this.#wake = undefined;
    this.#at = undefined;
    this.#rewound = false;
  }

  /**
   * Waits for the log to say a change may follow `#at`; false when it did not say so: the
   * wait was out of time, or woken to be timed again (if a change is there, the next wait
   * says so at once). Moved back while it waited, it is to read.
   */
  async #waitForChange(lingerUntil: number | undefined): Promise<boolean> {
    const now = Date.now();
    this.#waitUntil = Math.min(this.#firstUntil(), lingerUntil ?? Infinity);
    const wake = (this.#wake = new Wake());
    await this.#log.waitAfter(this.#at ?? 0, Math.max(0, this.#waitUntil - now), { signal: wake });
    this.#wake = undefined;
    return this.#rewound || !(wake.aborted || Date.now() >= this.#waitUntil);
  }

  #firstUntil(): number {
    let first = Infinity;
    for (const follower of this.#followers) first = Math.min(first, follower.until);
    return first;
  }

  #letGoTimedOut(): void {
    const now = Date.now();
    for (const follower of this.#followers) if (follower.until <= now) follower.settle([]);
  }

  /**
   * Hands each follower waiting at or past `from` the changes after its own `after`,
   * `FOLLOWERS_PER_TURN` a turn; one that left meanwhile is passed over.
   */
  async #handOut(from: number, changes: Change[]): Promise<void> {
    const due = [...this.#followers].filter((follower) => follower.after >= from);
    for (let first = 0; first < due.length; first += FOLLOWERS_PER_TURN) {
      if (first > 0) await this.#giveWay();
      for (const follower of due.slice(first, first + FOLLOWERS_PER_TURN)) {
        if (!this.#followers.has(follower)) continue;
        const start = changes.findIndex((change) => sequenceOf(change.id) > follower.after);
        if (start !== -1) follower.settle(changes.slice(start, start + follower.limit));
      }
    }
  }
}

/** The signal that ends the reader's wait early: the core's own, as it names no platform's `AbortController`. */
class Wake implements AbortSignalLike {
  aborted = false;
  reason: unknown = undefined;
  readonly #listeners = new Set<() => void>();

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    this.#listeners.add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.#listeners.delete(listener);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new Error('the reader of the tail was woken');
    for (const listener of this.#listeners) listener();
    this.#listeners.clear();
  }
}
