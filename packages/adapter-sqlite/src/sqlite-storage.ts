import { repositoriesOf, type RecordKind, type Repositories } from '@workplan/core';
import { dirname, resolve } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { copyDatabase, copyFile } from './backup.js';
import { retryWhileBusy } from './busy-retry.js';
import { makeFolder } from './make-folder.js';
import { explainOpenFailure } from './open-errors.js';
import { migrate, refuseNewerSchema } from './schema.js';
import { SqliteHitCounter } from './sqlite-hit-counter.js';
import { SqliteRecordRepository } from './sqlite-repository.js';
import { sameConnectionWriter, ThreadWriter, type SqliteWriter } from './sqlite-writer.js';

export interface SqliteStorageOptions {
  /** The database file, made with its folder when missing; `:memory:` for a database that ends with the process. */
  readonly path: string;
  /** `normal` (default) may lose the last commits on a power cut, never on a crash of the process; `full` loses none. */
  readonly synchronous?: 'normal' | 'full';
  /** How long a statement waits for another connection's lock before giving up; default 2000. */
  readonly busyTimeoutMs?: number;
}

/** What the connection is actually running with, read back from SQLite. */
export interface SqliteSettings {
  readonly path: string;
  readonly journalMode: string;
  readonly synchronous: 'off' | 'normal' | 'full' | 'extra';
  readonly busyTimeoutMs: number;
}

// node:sqlite is synchronous, so a statement waiting on a lock blocks its thread: the
// write thread for writes, the event loop for reads and for opening. Writes here are one
// short statement each, so a lock held for long means another process is stuck or
// migrating; two seconds matches the MongoDB adapter's promise of a 503 in about two
// seconds rather than a frozen service.
export const DEFAULT_BUSY_TIMEOUT_MS = 2000;

const SYNCHRONOUS_NAMES = ['off', 'normal', 'full', 'extra'] as const;

/**
 * One SQLite connection in WAL mode and the repositories over it, a table per kind of
 * record. Several storages, in this process or others, may share one file; the database
 * keeps keys unique across all of them. node:sqlite is synchronous: reads run on the
 * calling thread, writes on a second connection in a thread of their own (`ThreadWriter`),
 * so a commit, and the checkpoint some commits do, never holds the event loop.
 */
export class SqliteStorage {
  /** The absolute path of the file, or `:memory:`. */
  readonly path: string;
  /** Each kind's repository (`workSchedules` in table `work_schedules`, `costCenters` in `cost_centers`). */
  readonly repositories: Repositories;
  /** The rate limiter's counts, shared by every process serving the file. */
  readonly hitCounter: SqliteHitCounter;
  readonly #db: DatabaseSync;
  readonly #writer: SqliteWriter;
  readonly #readiness: StatementSync;

  private constructor(db: DatabaseSync, path: string, writer: SqliteWriter) {
    this.#db = db;
    this.#writer = writer;
    this.path = path;
    this.#readiness = db.prepare('SELECT count(*) FROM sqlite_master');
    this.repositories = repositoriesOf((kind) => this.repositoryFor(kind));
    this.hitCounter = new SqliteHitCounter(db, writer);
  }

  /**
   * Opens (or creates) the file and brings its schema up to date. Throws a
   * SqliteOpenError, leaving the file as it was, when it is not a SQLite database, was
   * written by a newer schema, cannot be created or written, or stays locked.
   */
  static open(options: SqliteStorageOptions): SqliteStorage {
    const path = options.path === ':memory:' ? ':memory:' : resolve(options.path);
    const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    try {
      // Connections switching one file to WAL at once can deadlock, and SQLite then
      // answers all but one SQLITE_BUSY at once, skipping the busy timeout; so the whole
      // open is tried again, each step being safe to repeat, until that timeout is spent.
      return retryWhileBusy(() => SqliteStorage.#connect(path, options, busyTimeoutMs), busyTimeoutMs);
    } catch (error) {
      throw explainOpenFailure(error, path, busyTimeoutMs);
    }
  }

  static #connect(path: string, options: SqliteStorageOptions, busyTimeoutMs: number): SqliteStorage {
    let db: DatabaseSync | undefined;
    let writer: SqliteWriter | undefined;
    try {
      if (path !== ':memory:') makeFolder(dirname(path));
      db = new DatabaseSync(path, { timeout: busyTimeoutMs });
      // The same for both connections: the write thread's commits are the ones that sync.
      const synchronous = options.synchronous === 'full' ? 'FULL' : 'NORMAL';
      db.exec(`PRAGMA synchronous = ${synchronous}`);
      // Read before anything writes: switching to WAL rewrites the header of a file in
      // rollback mode, and a refused file must stay byte for byte as it was.
      refuseNewerSchema(db, path);
      // WAL lets readers go on while one connection writes.
      db.exec('PRAGMA journal_mode = WAL');
      migrate(db, path);
      // Another connection to `:memory:` would be another database.
      if (path === ':memory:') {
        writer = sameConnectionWriter(db);
      } else {
        writer = new ThreadWriter({ path, synchronous, busyTimeoutMs });
      }
      return new SqliteStorage(db, path, writer);
    } catch (error) {
      void writer?.close();
      if (db?.isOpen === true) db.close();
      throw error;
    }
  }

  /** A repository for any kind whose table the schema has; make it once per kind and keep it. */
  repositoryFor<F extends string>(kind: RecordKind<F>): SqliteRecordRepository<F> {
    return new SqliteRecordRepository(this.#db, kind, this.#writer);
  }

  /** Resolves whether the database can be read, and the write thread takes writes. */
  async isReady(): Promise<boolean> {
    try {
      this.#readiness.get();
      return this.#writer.isWorking();
    } catch {
      // Any failure to read, closed or broken, means no.
      return false;
    }
  }

  /** The settings the connection runs with, as SQLite reports them. */
  settings(): SqliteSettings {
    const read = (pragma: string): unknown => Object.values(this.#db.prepare(`PRAGMA ${pragma}`).get() ?? {})[0];
    const synchronous = SYNCHRONOUS_NAMES[Number(read('synchronous'))];
    const journalMode = read('journal_mode');
    const busyTimeoutMs = read('busy_timeout');
    if (synchronous === undefined || typeof journalMode !== 'string' || typeof busyTimeoutMs !== 'number') {
      throw new Error('SQLite answered a PRAGMA with an unexpected value');
    }
    return { path: this.path, journalMode, synchronous, busyTimeoutMs };
  }

  /** Writes a consistent copy of the database to `targetPath` while it stays in use; resolves the pages copied. */
  async backup(targetPath: string): Promise<number> {
    // A file through a connection of its own, so this one's reads do not wait for the copy.
    return this.path === ':memory:' ? copyDatabase(this.#db, targetPath) : copyFile(this.path, targetPath);
  }

  /**
   * Refuses new writes, lets those already sent finish (a clash among them still reads its
   * holder), then closes the connection; the repositories fail after this. Closing twice
   * is harmless.
   */
  async close(): Promise<void> {
    await this.#writer.close();
    if (this.#db.isOpen) this.#db.close();
  }
}
