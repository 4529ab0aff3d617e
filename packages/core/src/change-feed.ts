import { changeIdOf, sequenceOf, type Change } from './change.js';
import { WorkplanError } from './errors.js';
import { ChangeTail } from './change-tail.js';
import { noGiveWay, type ChangeLog, type Clock, type GiveWay, type ReadOptions } from './ports.js';

/** The default and the largest number of changes in one answer of the feed; the largest of a record's history too. */
export const DEFAULT_CHANGES_LIMIT = 100;
export const MAX_CHANGES_LIMIT = 1000;
/** The longest a read may wait for a change, in seconds. */
export const MAX_CHANGES_WAIT_SECONDS = 30;

// A wait the log ends early (it may) is taken up again until its time is out, this many
// times at most, so that a clock that does not move (a test's) cannot hold a read forever.
const MAX_WAKE_UPS = 100;

/**
 * Which changes to read: those after the change with id `after` (absent or `0`: from the
 * first one kept), at most `limit`; with `wait` (seconds), when there is none yet, the read
 * is held until one is committed or the time is out.
 */
export interface ChangesRequest {
  readonly after?: string | undefined;
  readonly limit?: number | undefined;
  readonly wait?: number | undefined;
}

/** A page of the change log, and the `after` that reads on from it. */
export interface ChangesPage {
  readonly changes: Change[];
  /** The id of the last change of the page, or the request's `after` when it is empty. */
  readonly next: string;
}

/**
 * A page of changes as asked: the sequence after which it starts (`after`, absent: 0) and
 * how many it holds at most (`limit`, absent: `defaultLimit`); `invalidQuery` for an
 * `after` that is no change id or a `limit` out of its range. The feed and a record's
 * history are paged alike.
 */
export function checkChangesPage(
  request: { readonly after?: string | undefined; readonly limit?: number | undefined },
  defaultLimit = DEFAULT_CHANGES_LIMIT,
): { after: number; limit: number } {
  const after = request.after === undefined ? 0 : sequenceOf(request.after);
  const limit = request.limit ?? defaultLimit;
  checkChangesLimit(limit);
  return { after, limit };
}

/** Refuses (`invalidQuery`) a `wait` that is not a whole number of seconds from 1 to `MAX_CHANGES_WAIT_SECONDS`. */
export function checkChangesWait(wait: number | undefined): void {
  if (wait !== undefined && !isWithin(wait, 1, MAX_CHANGES_WAIT_SECONDS)) {
    throw WorkplanError.invalidQuery({ parameter: 'wait', rule: { kind: 'seconds', min: 1, max: MAX_CHANGES_WAIT_SECONDS } });
  }
}

/** Refuses (`invalidQuery`) a `limit` that is not a whole number from 1 to `MAX_CHANGES_LIMIT`. */
export function checkChangesLimit(limit: number | undefined): void {
  if (limit !== undefined && !isWithin(limit, 1, MAX_CHANGES_LIMIT)) {
    throw WorkplanError.invalidQuery({ parameter: 'limit', rule: { kind: 'wholeNumber', min: 1, max: MAX_CHANGES_LIMIT } });
  }
}

function isWithin(value: number, min: number, max: number): boolean {
  return Number.isSafeInteger(value) && value >= min && value <= max;
}

/**
 * The changes of every kind of record, in the order they were committed: what followers read.
 * A follower behind reads its pages itself; one with nothing left to read waits at the end
 * with every other, and is served from the one read of each new change (`ChangeTail`).
 */
export class ChangeFeed {
  readonly #log: ChangeLog;
  readonly #clock: Clock;
  readonly #tail: ChangeTail;

  /** `giveWay`: how the shared reader gives way between slices of the followers it hands a change to. */
  constructor(log: ChangeLog, clock: Clock, giveWay: GiveWay = noGiveWay) {
    this.#log = log;
    this.#clock = clock;
    this.#tail = new ChangeTail(log, MAX_CHANGES_LIMIT, giveWay);
  }

  /** A page of changes; `invalidQuery` for a bad request, `cursorExpired` when what followed `after` is no longer kept. */
  async read(request: ChangesRequest = {}, options?: ReadOptions): Promise<ChangesPage> {
    const { after, limit } = checkChangesPage(request);
    const wait = request.wait;
    checkChangesWait(wait);
    const deadline = this.#clock.now().getTime() + (wait ?? 0) * 1000;
    let changes = this.#fromTail(after, limit, wait, options) ?? (await this.#log.read(after, limit, options));
    for (let wakeUps = 0; changes.length === 0 && wakeUps < MAX_WAKE_UPS; wakeUps += 1) {
      const left = deadline - this.#clock.now().getTime();
      if (left <= 0 || options?.signal?.aborted === true) break;
      const shared = await this.#tail.follow(after, limit, left, options?.signal);
      // Called off while it waited: as a read of its own would be.
      options?.signal?.throwIfAborted();
      // The shared read failed: this follower's own read meets the failure, or reads past it.
      changes = shared ?? (await this.#log.read(after, limit, options));
    }
    const last = changes.at(-1);
    return { changes, next: last === undefined ? changeIdOf(after) : last.id };
  }

  /**
   * What a read answers before it waits, when the tail has it: a follower (a read that may
   * wait) where the shared read runs from has nothing to read yet; one behind within the
   * last shared read is served from it. Undefined: the read reads the log. Not async: a
   * stream asks this at every change, and what it has is known at once.
   */
  #fromTail(after: number, limit: number, wait: number | undefined, options?: ReadOptions): Change[] | undefined {
    if (wait === undefined) return undefined;
    options?.signal?.throwIfAborted();
    if (this.#tail.isAt(after)) return [];
    return this.#tail.recent(after, limit);
  }
}
