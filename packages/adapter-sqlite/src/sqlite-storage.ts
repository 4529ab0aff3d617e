import { repositoriesOf, seedKinds, wrapRepositories, type ChangeLog, type DeliveryLedger, type Kinds, type RecordKind, type Repositories, type SeedKinds } from '@workplan/core';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { StatementSync } from 'node:sqlite';
import { DatabaseSync } from './node-sqlite.js';
import { copyDatabase, copyFile } from './backup.js';
import { removeIfNothingStored } from './database-files.js';
import { retryWhileBusy } from './busy-retry.js';
import { FileFaults, PROBE_QUIET_MS, type StorageReport } from './file-faults.js';
import { fileMovedError, FileIdentity, saveWalIntoFile } from './file-identity.js';
import { makeFolder } from './make-folder.js';
import { admitFile, refuseNotAFile, refuseReadOnly } from './file-admission.js';
import { explainOpenFailure } from './open-errors.js';
import { migrate } from './schema.js';
import { SqliteChangeLog } from './sqlite-change-log.js';
import { SqliteDeliveryLedger } from './sqlite-delivery-ledger.js';
import { SqliteHitCounter } from './sqlite-hit-counter.js';
import { sameConnectionReader, ThreadReader, type SqliteReader } from './sqlite-reader.js';
import { SqliteRecordRepository } from './sqlite-repository.js';
import { sameConnectionWriter, ThreadWriter, type SqliteWriter } from './sqlite-writer.js';

export interface SqliteStorageOptions<K extends Kinds = SeedKinds> {
  /** The kinds of record it keeps, a table each (made when the file has none); the seed's by default. */
  readonly kinds?: K;
  /** The database file, made with its folder when missing; `:memory:` for a database that ends with the process. */
  readonly path: string;
  /** `normal` (default) may lose the last commits on a power cut, never on a crash of the process; `full` loses none. */
  readonly synchronous?: 'normal' | 'full';
  /**
   * Told when the file stops serving (full, failing, damaged, deleted or replaced under the
   * storage), again every few seconds at most while that lasts, and when it serves again;
   * calls meanwhile reject with `storageUnavailable`. Unset, nothing is told.
   */
  readonly report?: (report: StorageReport) => void;
  /** How long a statement waits for another connection's lock before giving up (a write: from when it was sent, its wait behind earlier writes included); default 2000. */
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
// short transaction each (a record's statement and its change), so a lock held for long
// means another process is stuck or migrating; two seconds matches the MongoDB adapter's promise of a 503 in about two
// seconds rather than a frozen service.
export const DEFAULT_BUSY_TIMEOUT_MS = 2000;

/** Where a storage's writes and long reads run: threads of their own for a file. */
interface Threads {
  readonly writer: SqliteWriter;
  readonly reader: SqliteReader;
}

const SYNCHRONOUS_NAMES = ['off', 'normal', 'full', 'extra'] as const;

/** How often the path is checked to still name the file opened (writes check it each, in their thread). */
const IDENTITY_CHECK_MS = 1000;

// Readiness, while writes fail for the file's sake, tries one: a row of the rate limiter's
// table under a key no client can have (a NUL), in a window that ended at once, so the
// first hit of the next window deletes it.
const WRITE_PROBE_KEY = '\u0000readiness';

/**
 * One SQLite connection in WAL mode and the repositories over it, a table per kind of
 * record, with the log of their changes. Several storages, in this process or others, may share one file; the database
 * keeps keys unique across all of them. node:sqlite is synchronous: short reads run on the
 * calling thread, writes on a second connection in a thread of their own (`ThreadWriter`),
 * so a commit, and the checkpoint some commits do, never holds the event loop, and long
 * reads (searches, deep pages) on a third, read-only, in a thread of theirs (`ThreadReader`),
 * so they never hold it either.
 */
export class SqliteStorage<K extends Kinds = SeedKinds> {
  /** The absolute path of the file, or `:memory:`. */
  readonly path: string;
  /** Each kind's repository (`workSchedules` in table `work_schedules`, `costCenters` in `cost_centers`). */
  readonly repositories: Repositories<K>;
  /** Every change the repositories committed, of every kind, in commit order: history and the changes feed. */
  readonly changes: ChangeLog;
  /** The rate limiter's counts, shared by every process serving the file. */
  readonly hitCounter: SqliteHitCounter;
  /** Each webhook subscription's cursor, lease and failure, shared by every process serving the file. */
  readonly deliveryLedger: DeliveryLedger;
  /** Whether opening made the file: there was none at the path. */
  readonly created: boolean;
  readonly #db: DatabaseSync;
  readonly #writer: SqliteWriter;
  readonly #reader: SqliteReader;
  readonly #changeLog: SqliteChangeLog;
  readonly #readiness: StatementSync;
  readonly #faults: FileFaults;
  readonly #identityCheck: NodeJS.Timeout | undefined;
  /** The -wal, gone from its path, has been copied whole into the file since it was last found there. */
  #walSaved = false;

  readonly #kinds: K;

  private constructor(db: DatabaseSync, path: string, kinds: K, threads: Threads, created: boolean, report: (report: StorageReport) => void) {
    this.#db = db;
    this.#kinds = kinds;
    this.#faults = new FileFaults(path, report);
    this.#writer = this.#faults.watchWrites(threads.writer);
    this.#reader = threads.reader;
    this.path = path;
    this.created = created;
    this.#readiness = db.prepare('SELECT count(*) FROM sqlite_master');
    this.#changeLog = new SqliteChangeLog(db, this.#writer, kinds);
    this.changes = this.#faults.watchChangeLog(this.#changeLog);
    const repositories = repositoriesOf(kinds, (kind) => this.repositoryFor(kind));
    this.repositories = wrapRepositories(repositories, (repository) => this.#faults.watchReads(repository));
    this.hitCounter = new SqliteHitCounter(db, this.#writer);
    this.deliveryLedger = this.#faults.watchDeliveryLedger(new SqliteDeliveryLedger(db, this.#writer));
    this.#identityCheck = path === ':memory:' ? undefined : this.#checkIdentity(new FileIdentity(path));
  }

  /**
   * Opens (or creates) the file and brings its schema up to date. Throws a
   * SqliteOpenError, leaving the file as it was, when it is not a SQLite database, is
   * another application's, was written by a newer schema, is corrupt, cannot be created or
   * written by this process, or stays locked.
   */
  static open<K extends Kinds>(options: SqliteStorageOptions<K> & { readonly kinds: K }): SqliteStorage<K>;
  static open(options: SqliteStorageOptions & { readonly kinds?: SeedKinds }): SqliteStorage;
  static open(options: SqliteStorageOptions<Kinds>): SqliteStorage<Kinds> | SqliteStorage {
    const path = options.path === ':memory:' ? ':memory:' : resolve(options.path);
    const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    // Before the first try: a try that made the file and then met a busy WAL switch made it all the same.
    const created = path !== ':memory:' && !existsSync(path);
    try {
      // Connections switching one file to WAL at once can deadlock, and SQLite then
      // answers all but one SQLITE_BUSY at once, skipping the busy timeout; so the whole
      // open is tried again, each step being safe to repeat, until that timeout is spent.
      return retryWhileBusy(() => SqliteStorage.#connect(path, options, busyTimeoutMs, created), busyTimeoutMs);
    } catch (error) {
      throw explainOpenFailure(error, path, busyTimeoutMs);
    }
  }

  static #connect(path: string, options: SqliteStorageOptions<Kinds>, busyTimeoutMs: number, created: boolean): SqliteStorage<Kinds> {
    const kinds = options.kinds ?? seedKinds;
    let db: DatabaseSync | undefined;
    let writer: SqliteWriter | undefined;
    let reader: SqliteReader | undefined;
    try {
      if (path !== ':memory:') {
        refuseNotAFile(options.path);
        makeFolder(dirname(path));
        refuseReadOnly(path);
      }
      db = new DatabaseSync(path, { timeout: busyTimeoutMs });
      // The same for both connections: the write thread's commits are the ones that sync.
      const synchronous = options.synchronous === 'full' ? 'FULL' : 'NORMAL';
      db.exec(`PRAGMA synchronous = ${synchronous}`);
      // Before anything writes: a refused file must stay byte for byte as it was.
      admitFile(db, path);
      // WAL lets readers go on while one connection writes.
      db.exec('PRAGMA journal_mode = WAL');
      migrate(db, path, Object.values(kinds));
      // Another connection to `:memory:` would be another database.
      if (path === ':memory:') {
        writer = sameConnectionWriter(db);
        reader = sameConnectionReader(db);
      } else {
        writer = new ThreadWriter({ path, synchronous, busyTimeoutMs });
        reader = new ThreadReader({ path, busyTimeoutMs });
      }
      return new SqliteStorage(db, path, kinds, { writer, reader }, created, options.report ?? (() => undefined));
    } catch (error) {
      void writer?.close();
      void reader?.close();
      if (db?.isOpen === true) db.close();
      throw error;
    }
  }

  /** Checks, every IDENTITY_CHECK_MS, that the path names the file opened: while it does not, every call is refused. */
  #checkIdentity(file: FileIdentity): NodeJS.Timeout {
    const check = setInterval(() => {
      void file.changeAsync().then((change) => {
        if (change !== undefined && !this.#faults.isMoved) this.#faults.noteFailure(fileMovedError(change));
        // Whatever was acknowledged and sits in a -wal gone from its path goes into the file
        // while the process lives: tried at every check until all of it is in, since another
        // connection's read (a search, a backup, another process) can hold part of it back.
        if (change?.of === 'companion' && !this.#walSaved) this.#walSaved = this.#saveWal();
        if (change === undefined) {
          this.#faults.noteFileBack();
          // Back where it was, the -wal takes writes again: a later loss of it has them to copy.
          this.#walSaved = false;
        }
      });
    }, IDENTITY_CHECK_MS);
    // The check alone must not keep a process alive.
    check.unref();
    return check;
  }

  /** Whether the whole -wal is now in the file. */
  #saveWal(): boolean {
    try {
      return saveWalIntoFile(this.#db, false);
    } catch {
      // The file cannot be written either: the fault is told already; tried again at the next check.
      return false;
    }
  }

  /** A repository for any kind whose table the schema has; make it once per kind and keep it. */
  repositoryFor<F extends string>(kind: RecordKind<F>): SqliteRecordRepository<F> {
    return new SqliteRecordRepository(this.#db, kind, { writer: this.#writer, reader: this.#reader, changes: this.#changeLog });
  }

  /**
   * Resolves whether the database can be read, the threads take writes and long reads, the
   * path still names the file opened, and writes do not fail for the file's sake (while
   * they did, one is tried).
   */
  async isReady(): Promise<boolean> {
    try {
      this.#readiness.get();
    } catch {
      // Any failure to read, closed or broken, means no.
      return false;
    }
    if (!this.#writer.isWorking() || !this.#reader.isWorking() || this.#faults.isMoved) return false;
    if (this.#faults.shouldProbe(PROBE_QUIET_MS)) await this.hitCounter.hit(WRITE_PROBE_KEY, 0, 0).catch(() => undefined);
    return !this.#faults.isFailing;
  }

  /** From now on no write begins; those sent and not yet begun reject with `storageUnavailable`, unwritten (see `close`). */
  stopWrites(): void {
    this.#writer.stopWrites();
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
   * Closes the storage and, if opening it made the database, removes it while no other
   * connection has it open and nothing was stored in it (see `removeIfNothingStored`): for
   * a start that fails after opening (its port taken, say), so that the next start does not
   * take an empty file for the operator's and says again that it makes one.
   */
  async discard(): Promise<void> {
    await this.close();
    if (this.created) removeIfNothingStored(this.path, Object.values(this.#kinds));
  }

  /**
   * Refuses new writes, lets the writes and long reads already sent finish (a clash among
   * them still reads its holder), then closes the connections; the repositories fail after
   * this. Closing twice is harmless. Writes waiting on another process's lock may each wait
   * out the busy timeout: `stopWrites` first, to close without waiting for those not yet
   * begun.
   */
  async close(): Promise<void> {
    clearInterval(this.#identityCheck);
    this.#faults.stop();
    this.#changeLog.close();
    await Promise.all([this.#writer.close(), this.#reader.close()]);
    if (this.#db.isOpen) this.#db.close();
  }
}
