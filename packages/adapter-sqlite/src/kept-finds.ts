import { isSameStamp, type Stamp } from './change-watch.js';

/** At most this many rows found by id are kept per table (some 200 bytes each). */
export const KEPT_FINDS = 10_000;

/**
 * The rows of one table found by id lately, all read at one stamp and served again only
 * while the stamp is unchanged: then no commit, of this connection or another, came
 * between, and the query would return the same row. A new stamp drops them all, as a
 * commit may have changed any of them; so does reaching `KEPT_FINDS`.
 *
 * Only worth it where a stamp costs no statement (`ChangeWatch.readsWalIndex`): a find by
 * id is one indexed read, and most of what it costs is the read transaction that a stamp
 * from `data_version` would cost too.
 */
export class KeptFinds<R> {
  #stamp: Stamp | undefined;
  readonly #rows = new Map<string, R>();

  /** The row of `id` if it was read at `stamp`; none without a stamp. */
  get(id: string, stamp: Stamp | undefined): R | undefined {
    if (stamp === undefined) return undefined;
    if (this.#stamp === undefined || !isSameStamp(this.#stamp, stamp)) {
      this.#rows.clear();
      this.#stamp = stamp;
      return undefined;
    }
    return this.#rows.get(id);
  }

  /**
   * Keeps the row of `id`, read after `stamp` was taken (without one, keeps nothing). A
   * row read while a commit went on may be newer than its stamp; it is never served, as
   * that commit moves the stamp of every later read.
   */
  set(id: string, stamp: Stamp | undefined, row: R): void {
    if (stamp === undefined || this.#stamp === undefined || !isSameStamp(this.#stamp, stamp)) return;
    if (this.#rows.size >= KEPT_FINDS) this.#rows.clear();
    this.#rows.set(id, row);
  }

  /** How many rows are kept. */
  get size(): number {
    return this.#rows.size;
  }
}
