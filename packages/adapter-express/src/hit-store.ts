import { WorkplanError } from '@workplan/core';
import { type ClientRateLimitInfo, type Options, type Store } from 'express-rate-limit';

/**
 * Where the rate limiter counts hits when every instance of the service must see the same
 * counts: the storage's database. Windows are fixed and aligned to the clock (a window of a
 * minute runs from one whole minute to the next), so instances agree on them without asking.
 */
export interface HitCounter {
  /**
   * Counts one hit of `key` in the window that starts at `windowStart` (milliseconds since
   * the epoch) and lasts `windowMs`; resolves the key's hits in that window, this one included.
   */
  hit(key: string, windowStart: number, windowMs: number): Promise<number>;
}

/**
 * An express-rate-limit store over a HitCounter, its keys under `prefix` so that each
 * limiter counts apart. A counter that fails (its database does not answer) fails the
 * request with `storageUnavailable`, a 503: not a 500, and not a request let through
 * uncounted, which would leave key guessing unlimited whenever the database stalls.
 */
export class HitCounterStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  readonly #counter: HitCounter;
  #windowMs = 60_000;

  constructor(counter: HitCounter, prefix: string) {
    this.#counter = counter;
    this.prefix = prefix;
  }

  init(options: Options): void {
    this.#windowMs = options.windowMs;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const windowStart = Math.floor(Date.now() / this.#windowMs) * this.#windowMs;
    try {
      const totalHits = await this.#counter.hit(`${this.prefix}${key}`, windowStart, this.#windowMs);
      return { totalHits, resetTime: new Date(windowStart + this.#windowMs) };
    } catch (error) {
      throw WorkplanError.storageUnavailable(error);
    }
  }

  // The limiters here count every request (neither skipFailedRequests nor
  // skipSuccessfulRequests), so express-rate-limit never takes a hit back, and no one
  // resets a key: a shared count offers neither, and says so if ever asked.
  decrement(): Promise<void> {
    return Promise.reject(new Error('a shared hit count is never taken back'));
  }

  resetKey(): Promise<void> {
    return Promise.reject(new Error('a shared hit count is not reset; it ends with its window'));
  }
}

/**
 * A HitCounter in this process, for a service whose records are in the process too: the
 * same windows as a database's counts, each key's count dropped once its window has ended.
 */
export class LocalHitCounter implements HitCounter {
  readonly #windows = new Map<number, Map<string, number>>();

  hit(key: string, windowStart: number, windowMs: number): Promise<number> {
    let window = this.#windows.get(windowStart);
    if (window === undefined) {
      for (const start of this.#windows.keys()) if (start + windowMs <= windowStart) this.#windows.delete(start);
      window = new Map();
      this.#windows.set(windowStart, window);
    }
    const hits = (window.get(key) ?? 0) + 1;
    window.set(key, hits);
    return Promise.resolve(hits);
  }
}
