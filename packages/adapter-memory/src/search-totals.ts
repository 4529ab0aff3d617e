/** Above this many kept totals, the oldest go: a total is cheap to count again, memory is not free. */
const MOST_TOTALS = 64;

/**
 * How many records matched each search counted since the last write. A client that walks a
 * search's pages with `count` asks for the same total on every page, and counting is a pass
 * through every record; while nothing is written, the total counted once answers them all.
 */
export class SearchTotals {
  readonly #totals = new Map<string, number>();
  #writes = 0;

  /** Where the records stand now: a total counted from them may be kept while it still does. */
  get version(): number {
    return this.#writes;
  }

  /** Called at every write: each total kept may be wrong from now on. */
  forget(): void {
    this.#writes += 1;
    if (this.#totals.size > 0) this.#totals.clear();
  }

  totalOf(search: string): number | undefined {
    return this.#totals.get(search);
  }

  /** Keeps the total of `search` counted at `version`, unless a write came since. */
  keep(search: string, total: number, version: number): void {
    if (version !== this.#writes) return;
    if (this.#totals.size >= MOST_TOTALS) this.#totals.delete(this.#totals.keys().next().value ?? search);
    this.#totals.set(search, total);
  }
}
