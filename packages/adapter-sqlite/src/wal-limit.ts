import { statSync } from 'node:fs';
import { type DatabaseSync, type StatementSync } from 'node:sqlite';

/** The size past which the write thread empties the WAL: four times the 1000 pages SQLite's own checkpoints aim at. */
export const WAL_LIMIT_BYTES = 16 * 1024 * 1024;
/** How long an emptying waits for readers still in the WAL before it gives up for now. */
const WAIT_FOR_READERS_MS = 100;
/** How long after an emptying that gave up the next one is tried, doubled at each one that gives up in a row... */
const RETRY_AFTER_MS = 1000;
/** ...up to this. */
const LONGEST_RETRY_MS = 60_000;

/**
 * Keeps a database's WAL from growing without end. SQLite's own checkpoints (PASSIVE, in
 * a commit that takes the WAL past 1000 pages) copy only the pages every reader has seen,
 * and the WAL starts over from its beginning only once all of it was copied while no
 * reader used it. A connection that is nearly always inside a read transaction (one whose
 * reads share each turn of the event loop, under load: turn-reads.ts) leaves no such
 * moment while writes go on: the WAL grew by some 2 MB a second under finds and creates.
 *
 * Past `limitBytes`, the thread raises `emptying` (shared with the storage's thread, whose
 * reads then stop sharing their turns, so each holds the WAL for a moment only) and runs a
 * TRUNCATE checkpoint: it copies everything, waits for the readers left in the WAL (up to
 * 100 ms: a reader of another process may hold a snapshot long), and empties the file.
 * One that gives up is tried again after a second, then two, up to a minute.
 */
export class WalLimit {
  readonly #db: DatabaseSync;
  readonly #walPath: string;
  readonly #limitBytes: number;
  readonly #busyTimeoutMs: number;
  readonly #truncate: StatementSync;
  readonly #emptying: Int32Array;
  #notBefore = 0;
  #retryAfterMs = RETRY_AFTER_MS;

  constructor(db: DatabaseSync, path: string, busyTimeoutMs: number, emptying: Int32Array, limitBytes = WAL_LIMIT_BYTES) {
    this.#db = db;
    this.#emptying = emptying;
    this.#walPath = `${path}-wal`;
    this.#limitBytes = limitBytes;
    this.#busyTimeoutMs = busyTimeoutMs;
    this.#truncate = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)');
    this.#truncate.setReturnArrays(true);
  }

  /**
   * After a write: empties the WAL when it is past the limit, `emptying` raised only while
   * it tries. Never throws: a WAL left long is no failed write.
   */
  afterWrite(): void {
    if (Date.now() < this.#notBefore || this.#walBytes() < this.#limitBytes) return;
    Atomics.store(this.#emptying, 0, 1);
    try {
      // A reader of another process may hold its snapshot long (a backup): wait briefly.
      this.#db.exec(`PRAGMA busy_timeout = ${WAIT_FOR_READERS_MS}`);
      const [busy] = (this.#truncate.get() as unknown[] | undefined) ?? [1];
      if (busy === 0) this.#retryAfterMs = RETRY_AFTER_MS;
      else this.#giveUpForNow();
    } catch {
      this.#giveUpForNow();
    } finally {
      Atomics.store(this.#emptying, 0, 0);
      this.#db.exec(`PRAGMA busy_timeout = ${this.#busyTimeoutMs}`);
    }
  }

  #giveUpForNow(): void {
    this.#notBefore = Date.now() + this.#retryAfterMs;
    this.#retryAfterMs = Math.min(this.#retryAfterMs * 2, LONGEST_RETRY_MS);
  }

  #walBytes(): number {
    try {
      return statSync(this.#walPath).size;
    } catch {
      return 0;
    }
  }
}
