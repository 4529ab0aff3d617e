import type { DatabaseSync, StatementSync } from 'node:sqlite';

// The pages of a list kept between reads, and the stamp that says whether they still hold:
// the stamp has no other use, so it lives with them.

/** Where a connection's data stood when a stamp was taken. */
export interface Stamp {
  /** `PRAGMA data_version`: moves when another connection, in any process, commits. */
  readonly dataVersion: unknown;
  /** How many record writes this connection had made. */
  readonly ownWrites: number;
}

/**
 * Tells whether a connection's records may have changed since a stamp: SQLite's
 * `data_version` moves with every commit of another connection (a storage's write thread
 * among them), but not with the connection's own, which the repositories count here.
 * Repositories on one connection share its watch, so a write through any of them is seen
 * by all.
 */
export class ChangeWatch {
  readonly #db: DatabaseSync;
  readonly #dataVersion: StatementSync;
  #ownWrites = 0;

  private constructor(db: DatabaseSync) {
    this.#db = db;
    this.#dataVersion = db.prepare('PRAGMA data_version');
    this.#dataVersion.setReturnArrays(true);
  }

  static readonly #ofConnection = new WeakMap<DatabaseSync, ChangeWatch>();

  /** The watch of `db`, the same for every caller. */
  static of(db: DatabaseSync): ChangeWatch {
    let watch = ChangeWatch.#ofConnection.get(db);
    if (watch === undefined) {
      watch = new ChangeWatch(db);
      ChangeWatch.#ofConnection.set(db, watch);
    }
    return watch;
  }

  /** Counts a write this connection made to a record table (or tried to: a failed one costs only a re-read). */
  noteWrite(): void {
    this.#ownWrites += 1;
  }

  /**
   * Where the data stands now; reads the database (one statement). Undefined inside a
   * caller's explicit transaction: a rollback would undo writes and move neither count.
   */
  stamp(): Stamp | undefined {
    if (this.#db.isTransaction) return undefined;
    const row = this.#dataVersion.get() as unknown[] | undefined;
    return { dataVersion: row?.[0], ownWrites: this.#ownWrites };
  }
}

/** Whether two stamps say the data is unchanged between them. */
export function isSameStamp(a: Stamp, b: Stamp): boolean {
  return a.dataVersion === b.dataVersion && a.ownWrites === b.ownWrites;
}

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
