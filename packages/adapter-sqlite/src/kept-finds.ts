import { isSameStamp, type Stamp } from './change-watch.js';

/** At most this many rows found by id are kept per table (some 200 bytes each). */
export const KEPT_FINDS = 10_000;

/**
 * The rows of one table found by id lately, all read at one stamp and served again only
 * while the stamp is unchanged: then no commit, of this connection or another, came
 * between, and the query would return the same row. A new stamp drops them all, as a
 * commit may have changed any of them; so does reaching `KEPT_FINDS`.
 *
 * Only worth it where reads share the transaction of their turn (turn-reads.ts), which
 * reads the stamp once: a find by id is one indexed read, and a stamp of its own would
 * cost as much.
 */
export class KeptFinds<R> {
  #stamp: Stamp | undefined;
  readonly #rows = new Map<string, R>();

  /**
   * The row of `id`: the one kept, when read at `stamp`; otherwise `read()`'s, kept when
   * there is a stamp. `read` must see the snapshot the stamp was taken in (the turn's
   * transaction), or a newer one: a row newer than its stamp is never served, as the
   * commit that made it moves the stamp of every later transaction.
   */
  rowOf(id: string, stamp: Stamp | undefined, read: () => R | undefined): R | undefined {
    if (stamp === undefined) return read();
    if (this.#stamp === undefined || !isSameStamp(this.#stamp, stamp)) {
      this.#rows.clear();
      this.#stamp = stamp;
    }
    const kept = this.#rows.get(id);
    if (kept !== undefined) return kept;
    const row = read();
    if (row === undefined) return undefined;
    if (this.#rows.size >= KEPT_FINDS) this.#rows.clear();
    this.#rows.set(id, row);
    return row;
  }

  /** How many rows are kept. */
  get size(): number {
    return this.#rows.size;
  }
}
