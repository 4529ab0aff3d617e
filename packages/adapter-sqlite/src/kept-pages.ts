import { isSameStamp, type Stamp } from './change-watch.js';

/** At most this many rows are kept, over all pages of one table... */
export const KEPT_ROWS = 10_000;
/** ...in at most this many pages (an empty page holds no row, but its place). */
export const KEPT_PAGES = 256;

interface KeptPage<R> {
  readonly stamp: Stamp;
  readonly rows: readonly R[];
}

/**
 * The rows of the pages of one table listed lately, each with the stamp it was read at, and
 * served again only while the stamp is unchanged: then no commit, of this connection or
 * another, came between, and the query would return the same rows. Why: the query pays
 * for every row it returns, the stamp is one statement whatever the page (figures in
 * docs/benchmarks/README.md).
 */
export class KeptPages<R> {
  readonly #pages = new Map<string, KeptPage<R>>();
  #rows = 0;

  /** The rows of page `key` if they were read at `stamp`; none without a stamp. */
  get(key: string, stamp: Stamp | undefined): readonly R[] | undefined {
    const page = this.#pages.get(key);
    return page !== undefined && stamp !== undefined && isSameStamp(page.stamp, stamp) ? page.rows : undefined;
  }

  /**
   * Keeps the rows of page `key`, read at `stamp` (without one, keeps nothing); the pages
   * written first go to stay within `KEPT_ROWS` and `KEPT_PAGES`.
   */
  set(key: string, stamp: Stamp | undefined, rows: readonly R[]): void {
    this.#drop(key);
    if (stamp === undefined) return;
    if (rows.length > KEPT_ROWS) return;
    for (const oldest of this.#pages.keys()) {
      if (this.#rows + rows.length <= KEPT_ROWS && this.#pages.size < KEPT_PAGES) break;
      this.#drop(oldest);
    }
    this.#pages.set(key, { stamp, rows });
    this.#rows += rows.length;
  }

  /** How many rows are kept, over all pages. */
  get rows(): number {
    return this.#rows;
  }

  /** How many pages are kept. */
  get pages(): number {
    return this.#pages.size;
  }

  #drop(key: string): void {
    const page = this.#pages.get(key);
    if (page === undefined) return;
    this.#pages.delete(key);
    this.#rows -= page.rows.length;
  }
}
