import { type DatabaseSync, type StatementSync } from 'node:sqlite';
import { guardSqliteCall } from './sqlite-errors.js';

/** The table of the rate limiter's counts: one row per key and window, gone once the window has ended. */
export const CREATE_HIT_TABLE_SQL = `
  CREATE TABLE rate_limit_hits (
    "key" TEXT NOT NULL,
    window_start INTEGER NOT NULL,
    window_end INTEGER NOT NULL,
    hits INTEGER NOT NULL,
    PRIMARY KEY ("key", window_start)
  ) STRICT, WITHOUT ROWID;`;

/**
 * Counts the rate limiter's hits in the SQLite file, so every process serving the file
 * shares them. A hit is one statement that inserts the window's row or adds one to it and
 * returns the count: SQLite runs it under the file's write lock, so no hit is lost to a
 * race. Rows of ended windows are deleted by the first hit of each new window.
 */
export class SqliteHitCounter {
  readonly #hit: StatementSync;
  readonly #forgetEnded: StatementSync;
  #lastWindowStart = 0;

  constructor(db: DatabaseSync) {
    this.#hit = db.prepare(`
      INSERT INTO rate_limit_hits ("key", window_start, window_end, hits) VALUES (?, ?, ?, 1)
      ON CONFLICT ("key", window_start) DO UPDATE SET hits = hits + 1
      RETURNING hits`);
    this.#forgetEnded = db.prepare('DELETE FROM rate_limit_hits WHERE window_end <= ?');
  }

  async hit(key: string, windowStart: number, windowMs: number): Promise<number> {
    if (windowStart > this.#lastWindowStart) {
      this.#lastWindowStart = windowStart;
      guardSqliteCall(() => this.#forgetEnded.run(windowStart));
    }
    const row = guardSqliteCall(() => this.#hit.get(key, windowStart, windowStart + windowMs));
    const hits = row?.['hits'];
    if (typeof hits !== 'number') throw new Error('rate_limit_hits answered a count that is not a number');
    return hits;
  }
}
