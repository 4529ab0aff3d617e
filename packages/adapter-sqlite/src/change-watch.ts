import { type DatabaseSync } from 'node:sqlite';
import { type WalIndex } from './wal-index.js';

/** Where a connection's data stood when a stamp was taken. */
export interface Stamp {
  /** Moves when a commit is seen: the WAL index's stamp, or `PRAGMA data_version`. */
  readonly commits: unknown;
  /** How many record writes this connection had made. */
  readonly ownWrites: number;
}

/**
 * Tells whether a connection's records may have changed since a stamp. Over a WAL index
 * (`SqliteStorage` gives one to a file), every commit moves the stamp, this connection's
 * own among them, for one read of the index and no statement. Otherwise SQLite's
 * `data_version` moves with every commit of another connection, but not with the
 * connection's own, which the repositories count here. Repositories on one connection
 * share its watch, so a write through any of them is seen by all.
 */
export class ChangeWatch {
  readonly #db: DatabaseSync;
  readonly #commits: () => unknown;
  #ownWrites = 0;

  /** Whether a stamp costs no statement, so a find is worth keeping (`KeptFinds`). */
  readonly stampsWithoutStatement: boolean;

  private constructor(db: DatabaseSync, commits: () => unknown, stampsWithoutStatement: boolean) {
    this.#db = db;
    this.#commits = commits;
    this.stampsWithoutStatement = stampsWithoutStatement;
  }

  /** A watch over `walIndex`, the index of `db`'s file: make one per connection and share it. */
  static overWalIndex(db: DatabaseSync, walIndex: WalIndex): ChangeWatch {
    return new ChangeWatch(db, () => walIndex.stamp(), true);
  }

  static readonly #ofConnection = new WeakMap<DatabaseSync, ChangeWatch>();

  /** The `data_version` watch of `db`, the same for every caller. */
  static of(db: DatabaseSync): ChangeWatch {
    let watch = ChangeWatch.#ofConnection.get(db);
    if (watch === undefined) {
      const dataVersion = db.prepare('PRAGMA data_version');
      dataVersion.setReturnArrays(true);
      watch = new ChangeWatch(db, () => (dataVersion.get() as unknown[] | undefined)?.[0], false);
      ChangeWatch.#ofConnection.set(db, watch);
    }
    return watch;
  }

  /** Counts a write this connection made to a record table (or tried to: a failed one costs only a re-read). */
  noteWrite(): void {
    this.#ownWrites += 1;
  }

  /**
   * Where the data stands now. Undefined inside an explicit transaction (a rollback would
   * undo writes and move neither count), and when the WAL index gave no stamp.
   */
  stamp(): Stamp | undefined {
    if (this.#db.isTransaction) return undefined;
    const commits = this.#commits();
    return commits === undefined ? undefined : { commits, ownWrites: this.#ownWrites };
  }
}

/** Whether two stamps say the data is unchanged between them. */
export function isSameStamp(a: Stamp, b: Stamp): boolean {
  return a.commits === b.commits && a.ownWrites === b.ownWrites;
}
