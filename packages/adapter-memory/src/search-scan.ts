import { type Ordered, type OrderView } from './order-view.js';
import { type OrderWalk } from './order-walk.js';
import { type Scan } from './scan-lane.js';

/** A page of the entries a search found, and, when asked for, how many it found in all. */
export interface FoundEntries<E> {
  readonly entries: E[];
  readonly total?: number | undefined;
}

export interface SearchPlan<E extends Ordered> {
  /** The order searched, walked from the page's place. */
  readonly walk: OrderWalk<E>;
  /** Every entry, in any order, for the count. */
  readonly everyEntry: OrderView<E>;
  readonly matches: (entry: E) => boolean;
  /** Matches passed over at the page's place before the page. */
  readonly skip: number;
  readonly limit: number;
  /** Whether to count every match too. */
  readonly count: boolean;
  /** The walk starts at the order's first entry (no cursor): if it ends, it has seen every match. */
  readonly fromStart: boolean;
}

// Entries looked at between two looks at the clock: reading it costs more than looking at one.
const ENTRIES_PER_LOOK = 256;

/**
 * A search through an order: first the page of matches at its place, which ends as soon as
 * the page is full, then, when asked for, the count of every match, in whichever order is
 * cheapest to go through (the count needs none). A page whose walk went from the start to
 * the end has seen every match (a search that finds few): its count needs no second pass.
 */
export class SearchScan<E extends Ordered> implements Scan<FoundEntries<E>> {
  readonly #plan: SearchPlan<E>;
  readonly #entries: E[] = [];
  #skipped = 0;
  #pageDone = false;
  #walkEnded = false;
  #counted = 0;
  #total = 0;

  constructor(plan: SearchPlan<E>) {
    this.#plan = plan;
  }

  advance(timeIsUp: () => boolean): boolean {
    while (!this.#pageDone) {
      this.#pageDone = this.#findPage();
      if (!this.#pageDone && timeIsUp()) return false;
    }
    if (!this.#plan.count) return true;
    if (this.#walkEnded && this.#plan.fromStart) {
      this.#total = this.#skipped + this.#entries.length;
      return true;
    }
    while (this.#counted < this.#plan.everyEntry.size) {
      this.#countSome();
      if (this.#counted < this.#plan.everyEntry.size && timeIsUp()) return false;
    }
    return true;
  }

  result(): FoundEntries<E> {
    return this.#plan.count ? { entries: this.#entries, total: this.#total } : { entries: this.#entries };
  }

  /** Looks at some entries of the walk; true once the page is full or the walk ended. */
  #findPage(): boolean {
    const { walk, matches, skip, limit } = this.#plan;
    for (let looked = 0; looked < ENTRIES_PER_LOOK; looked += 1) {
      if (this.#entries.length >= limit) return true;
      const entry = walk.next();
      if (entry === undefined) {
        this.#walkEnded = true;
        return true;
      }
      if (!matches(entry)) continue;
      if (this.#skipped < skip) this.#skipped += 1;
      else this.#entries.push(entry);
    }
    return this.#entries.length >= limit;
  }

  #countSome(): void {
    const { everyEntry, matches } = this.#plan;
    const end = Math.min(this.#counted + ENTRIES_PER_LOOK, everyEntry.size);
    for (let index = this.#counted; index < end; index += 1) {
      if (matches(everyEntry.at(index))) this.#total += 1;
    }
    this.#counted = end;
  }
}
