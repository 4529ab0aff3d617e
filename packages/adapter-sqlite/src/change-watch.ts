import type { DatabaseSync, StatementSync } from 'node:sqlite';

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
