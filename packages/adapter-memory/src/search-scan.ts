import { type Ordered } from './kept-order.js';
import { type OrderWalk } from './order-walk.js';
import { type Scan } from './scan-lane.js';

/** A page of the entries a search found, and, when asked for, how many it found in all. */
export interface FoundEntries<E> {
  readonly entries: E[];
  readonly total?: number | undefined;
}

export interface SearchPlan<E extends Ordered> {
  /** The order to go through, from where the scan starts. */
  readonly walk: OrderWalk<E>;
  readonly matches: (entry: E) => boolean;
  /** Entries of the walk before the page's place (a walk that counts starts at the first). */
  readonly pageFrom: number;
  /** Matches passed over at the page's place before the page. */
  readonly skip: number;
  readonly limit: number;
  /** Whether to go on to the end, counting every match. */
  readonly count: boolean;
}

// Entries looked at between two looks at the clock: reading it costs more than looking at one.
const ENTRIES_PER_LOOK = 256;

/** A search through an order: the page of matches at a place, and their number in all when asked for. */
export class SearchScan<E extends Ordered> implements Scan<FoundEntries<E>> {
  readonly #plan: SearchPlan<E>;
  readonly #entries: E[] = [];
  #walked = 0;
  #skipped = 0;
  #total = 0;

  constructor(plan: SearchPlan<E>) {
    this.#plan = plan;
  }

  advance(timeIsUp: () => boolean): boolean {
    const { walk, matches, pageFrom, skip, limit, count } = this.#plan;
    if (this.#entries.length >= limit && !count) return true;
    for (;;) {
      for (let looked = 0; looked < ENTRIES_PER_LOOK; looked += 1) {
        const entry = walk.next();
        if (entry === undefined) return true;
        const place = this.#walked;
        this.#walked += 1;
        if (!matches(entry)) continue;
        this.#total += 1;
        if (place < pageFrom) continue;
        if (this.#skipped < skip) {
          this.#skipped += 1;
        } else if (this.#entries.length < limit) {
          this.#entries.push(entry);
          if (this.#entries.length === limit && !count) return true;
        }
      }
      if (timeIsUp()) return false;
    }
  }

  result(): FoundEntries<E> {
    return this.#plan.count ? { entries: this.#entries, total: this.#total } : { entries: this.#entries };
  }
}
