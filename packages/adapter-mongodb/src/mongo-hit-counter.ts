import { WorkplanError } from '@workplan/core';
import { type Collection } from 'mongodb';
import { guardDriverCall, isDuplicateKeyError, translateDriverError } from './driver-errors.js';
import { abortableBy, withinBackgroundLimit, withinTimeLimit } from './time-limit.js';

/** One counted hit: ticket `n` of its key in its window, gone once the window has ended. */
export interface HitDocument {
  /** `key|windowStart|n`. */
  _id: string;
  expiresAt: Date;
}

// The next ticket this instance tries, per key and window; past this many keys the memory
// starts over (it is a head start, not the count).
const REMEMBERED_KEYS = 10_000;

/**
 * Counts the rate limiter's hits in MongoDB, exactly, however many instances count at once.
 * An `$inc` would do on MongoDB, but FerretDB 1.x applies one by reading, then writing the
 * document (FerretDB#2168), and loses the increments that race: 50 at once counted 2. So
 * each hit takes a numbered ticket of its key and window by inserting it; `_id` is unique
 * on every server speaking the protocol, so each number goes to exactly one hit, and the
 * number a hit gets is the count. Hits of one instance try different numbers, so they only
 * race those of other instances. A MongoDB TTL index removes the tickets of ended windows;
 * where the server has none (FerretDB 1.x), the first hit of each window does.
 */
export class MongoHitCounter {
  readonly #collection: Collection<HitDocument>;
  readonly #timeoutMS: number;
  readonly #nextTicket = new Map<string, number>();
  #sweepsEndedWindows = false;
  #lastWindowStart = 0;

  constructor(collection: Collection<HitDocument>, timeoutMS: number) {
    this.#collection = collection;
    this.#timeoutMS = timeoutMS;
  }

  /** Creates the TTL index that removes ended windows, or notes that this server has none; safe on every start. */
  async ensureIndexes(): Promise<void> {
    try {
      await withinBackgroundLimit(this.#timeoutMS, undefined, (signal) =>
        this.#collection.createIndexes([{ key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 }], abortableBy(signal, {})),
      );
    } catch (error) {
      const translated = translateDriverError(error);
      if (WorkplanError.is(translated)) throw translated; // No answer: try again later.
      this.#sweepsEndedWindows = true; // A refusal; FerretDB 1.24's: "expireAfterSeconds is not implemented yet".
    }
  }

  async hit(key: string, windowStart: number, windowMs: number): Promise<number> {
    return withinTimeLimit(this.#timeoutMS, undefined, async (signal) => {
      await this.#sweepOnNewWindow(windowStart, signal);
      const tickets = `${key}|${windowStart}|`;
      const expiresAt = new Date(windowStart + windowMs);
      let number = this.#reserve(tickets, 1);
      while (!(await this.#take(`${tickets}${number}`, expiresAt, signal))) {
        number = this.#reserve(tickets, await this.#firstFree(tickets, number + 1, signal));
      }
      return number;
    });
  }

  /** The number this instance tries next, at least `atLeast`; the one after it goes to the next hit of this instance. */
  #reserve(tickets: string, atLeast: number): number {
    const number = Math.max(this.#nextTicket.get(tickets) ?? 1, atLeast);
    if (this.#nextTicket.size >= REMEMBERED_KEYS) this.#nextTicket.clear();
    this.#nextTicket.set(tickets, number + 1);
    return number;
  }

  /** Inserts the ticket; false when another hit holds it. */
  async #take(ticket: string, expiresAt: Date, signal: AbortSignal): Promise<boolean> {
    try {
      await this.#collection.insertOne({ _id: ticket, expiresAt }, abortableBy(signal, {}));
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw translateDriverError(error);
    }
  }

  /**
   * The lowest untaken ticket from `from` on: steps of 1, 2, 4... until one is free, then
   * halving back, so a counter that is far behind (a new instance, a busy key) catches up
   * in a few look-ups by `_id`, which every server answers from its index.
   */
  async #firstFree(tickets: string, from: number, signal: AbortSignal): Promise<number> {
    const taken = async (number: number) =>
      (await guardDriverCall(() => this.#collection.findOne({ _id: `${tickets}${number}` }, { projection: { _id: 1 }, signal }))) !== null;
    let below = from - 1; // Taken, as far as we know.
    let free = from;
    for (let step = 1; await taken(free); step *= 2) {
      below = free;
      free = from + step;
    }
    while (free - below > 1) {
      const middle = Math.floor((below + free) / 2);
      if (await taken(middle)) below = middle;
      else free = middle;
    }
    return free;
  }

  async #sweepOnNewWindow(windowStart: number, signal: AbortSignal): Promise<void> {
    if (windowStart <= this.#lastWindowStart) return;
    this.#lastWindowStart = windowStart;
    this.#nextTicket.clear();
    if (!this.#sweepsEndedWindows) return;
    await guardDriverCall(() => this.#collection.deleteMany({ expiresAt: { $lte: new Date(windowStart) } }, abortableBy(signal, {})));
  }
}
