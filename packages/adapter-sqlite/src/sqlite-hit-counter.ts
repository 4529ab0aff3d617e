import type { DatabaseSync } from 'node:sqlite';
import { translateSqliteError } from './sqlite-errors.js';
import { sameConnectionWriter, type SqliteWriter } from './sqlite-writer.js';

/** The table of the rate limiter's counts: one row per key and window, gone once the window has ended. */
export const CREATE_HIT_TABLE_SQL = `
  CREATE TABLE rate_limit_hits (
    "key" TEXT NOT NULL,
    window_start INTEGER NOT NULL,
    window_end INTEGER NOT NULL,
    hits INTEGER NOT NULL,
    PRIMARY KEY ("key", window_start)
  ) STRICT, WITHOUT ROWID;`;

const HIT_SQL = `
  INSERT INTO rate_limit_hits ("key", window_start, window_end, hits) VALUES (?, ?, ?, 1)
  ON CONFLICT ("key", window_start) DO UPDATE SET hits = hits + 1
  RETURNING hits`;
const FORGET_ENDED_SQL = 'DELETE FROM rate_limit_hits WHERE window_end <= ?';

/**
 * Counts the rate limiter's hits in the SQLite file, so every process serving the file
 * shares them. A hit is one statement that inserts the window's row or adds one to it and
 * returns the count: SQLite runs it under the file's write lock, so no hit is lost to a
 * race. Rows of ended windows are deleted by the first hit of each new window.
 */
export class SqliteHitCounter {
  readonly #writer: SqliteWriter;
  #lastWindowStart = 0;

  /** Counts in `db`'s file, through `writer` when given (`SqliteStorage` gives a file its write thread). */
  constructor(db: DatabaseSync, writer: SqliteWriter = sameConnectionWriter(db)) {
    this.#writer = writer;
  }

  async hit(key: string, windowStart: number, windowMs: number): Promise<number> {
    try {
      if (windowStart > this.#lastWindowStart) {
        this.#lastWindowStart = windowStart;
        await this.#writer.write([{ method: 'run', sql: FORGET_ENDED_SQL, params: [windowStart] }]);
      }
      const [counted] = await this.#writer.write([{ method: 'get', sql: HIT_SQL, params: [key, windowStart, windowStart + windowMs] }]);
      const hits = counted?.row?.[0];
      if (typeof hits !== 'number') throw new Error('rate_limit_hits answered a count that is not a number');
      return hits;
    } catch (error) {
      throw translateSqliteError(error);
    }
  }
}
