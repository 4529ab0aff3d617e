import { WorkplanError, type ChangeLog, type DeliveryLedger, type RecordRepository } from '@workplan/core';
import { isFileDamage, isFileFault, SQLITE_READONLY_DBMOVED, sqliteCodeOf } from './sqlite-errors.js';
import { type SqliteWriter } from './sqlite-writer.js';
import { type WriteResult, type WriteStep } from './write-statements.js';

/** How often at most a fault that goes on is told again. */
export const FAULT_REPORT_INTERVAL_MS = 5000;

/** How long no call must have failed before readiness tries a write of its own (`shouldProbe`). */
export const PROBE_QUIET_MS = 5000;

/** A line for the storage's owner to log. */
export interface StorageReport {
  readonly level: 'info' | 'warn' | 'error';
  /** One line, naming the file. */
  readonly message: string;
  readonly cause?: unknown;
}

/**
 * Whether a storage's file serves, as the calls it served found out. A call that fails for
 * the file's sake (`isFileFault`: no room, failed I/O, damage, unwritable, gone from its
 * path) marks it failing until a write succeeds again; while the path names another file
 * or none, every call is refused before it runs. The owner is told when the file starts
 * failing, again while calls go on failing, and when it serves again, in one line every
 * FAULT_REPORT_INTERVAL_MS at most: a full disk can fail and serve by turns many times a
 * second, as small writes find room that larger ones did not.
 */
export class FileFaults {
  readonly #path: string;
  readonly #report: (report: StorageReport) => void;
  readonly #now: () => number;
  /** What the last failing call failed with; undefined while the file serves. */
  #failure: Error | undefined;
  #failedAt = -Infinity;
  #toldAt = -Infinity;
  #toldFailing = false;
  #failedSinceTold = 0;
  /** Tells the state once the interval since the last line has passed. */
  #telling: NodeJS.Timeout | undefined;

  constructor(path: string, report: (report: StorageReport) => void, now: () => number = Date.now) {
    this.#path = path;
    this.#report = report;
    this.#now = now;
  }

  /** Whether the last call of concern failed for the file's sake. */
  get isFailing(): boolean {
    return this.#failure !== undefined;
  }

  /** Whether the path was found to name another file, or none. */
  get isMoved(): boolean {
    return sqliteCodeOf(this.#failure) === SQLITE_READONLY_DBMOVED;
  }

  /**
   * Notes a failed call; anything but a fault of the file is left alone, and a path that
   * names another file stays the fault told until it names this one again (`noteFileBack`).
   */
  noteFailure(error: unknown): void {
    const fault = WorkplanError.is(error) ? error.cause : error;
    if (!isFileFault(fault) || !(fault instanceof Error)) return;
    if (this.isMoved) {
      this.#failedSinceTold += 1;
      return;
    }
    this.#failure = fault;
    this.#failedAt = this.#now();
    this.#failedSinceTold += 1;
    this.#changed();
  }

  /**
   * Whether readiness should try a write to learn if the file serves again: it fails, it
   * may mend (not damaged, not moved), and no call failed for `quietMs`. While calls go on
   * failing they tell better than a small write, which a full disk may find room for when
   * the writes clients send do not.
   */
  shouldProbe(quietMs: number): boolean {
    const failure = this.#failure;
    return failure !== undefined && !isFileDamage(failure) && !this.isMoved && this.#now() - this.#failedAt >= quietMs;
  }

  /**
   * Notes that a write succeeded. A damaged file does not mend by itself: it stays failing;
   * nor does a path that names another file (a write may have begun before it was seen).
   */
  noteServing(): void {
    if (this.#failure === undefined || isFileDamage(this.#failure) || this.isMoved) return;
    this.#failure = undefined;
    this.#changed();
  }

  /** Notes that the path names the opened file again. */
  noteFileBack(): void {
    if (!this.isMoved) return;
    this.#failure = undefined;
    this.#changed();
  }

  /** Tells a change of state still waiting for its interval, then nothing more (the storage closes). */
  stop(): void {
    if (this.#telling !== undefined) this.#tellState();
    clearTimeout(this.#telling);
  }

  /** `writer`, refusing every write while the path names another file, and noting how each ends. */
  watchWrites(writer: SqliteWriter): SqliteWriter {
    return {
      write: async (steps: readonly WriteStep[]): Promise<WriteResult[]> => {
        this.#refuseWhileMoved();
        try {
          const results = await writer.write(steps);
          this.noteServing();
          return results;
        } catch (error) {
          this.noteFailure(error);
          throw error;
        }
      },
      close: () => writer.close(),
      isWorking: () => writer.isWorking(),
      stopWrites: () => {
        writer.stopWrites();
      },
    };
  }

  /** `repository`, its reads refused while the path names another file and their failures noted (its writes go through `watchWrites`). */
  watchReads<F extends string>(repository: RecordRepository<F>): RecordRepository<F> {
    // Every argument passed on as given: one dropped (a key) would still type-check.
    return {
      insert: (...args) => repository.insert(...args),
      update: (...args) => repository.update(...args),
      delete: (...args) => repository.delete(...args),
      findById: (...args) => this.#watched(() => repository.findById(...args)),
      list: (...args) => this.#watched(() => repository.list(...args)),
      query: (...args) => this.#watched(() => repository.query(...args)),
      count: (...args) => this.#watched(() => repository.count(...args)),
    };
  }

  /** `log`, watched as `watchReads` watches a repository (its `prune` writes through `watchWrites`). */
  watchChangeLog(log: ChangeLog): ChangeLog {
    return {
      read: (...args) => this.#watched(() => log.read(...args)),
      history: (...args) => this.#watched(() => log.history(...args)),
      waitAfter: (...args) => this.#watched(() => log.waitAfter(...args)),
      prune: (...args) => log.prune(...args),
    };
  }

  /** `ledger`, its reads watched as `watchReads` watches a repository's (its writes go through `watchWrites`). */
  watchDeliveryLedger(ledger: DeliveryLedger): DeliveryLedger {
    return {
      claim: (...args) => ledger.claim(...args),
      advance: (...args) => ledger.advance(...args),
      fail: (...args) => ledger.fail(...args),
      release: (...args) => ledger.release(...args),
      state: (...args) => this.#watched(() => ledger.state(...args)),
    };
  }

  async #watched<T>(read: () => Promise<T>): Promise<T> {
    this.#refuseWhileMoved();
    try {
      return await read();
    } catch (error) {
      this.noteFailure(error);
      throw error;
    }
  }

  #refuseWhileMoved(): void {
    if (!this.isMoved) return;
    const failure = this.#failure;
    this.noteFailure(failure);
    throw WorkplanError.storageUnavailable(failure);
  }

  #changed(): void {
    const wait = this.#toldAt + FAULT_REPORT_INTERVAL_MS - this.#now();
    if (wait <= 0) {
      this.#tellState();
    } else if (this.#telling === undefined) {
      this.#telling = setTimeout(() => {
        this.#telling = undefined;
        this.#tellState();
      }, wait);
      // A line still to tell must not keep a process alive.
      this.#telling.unref();
    }
  }

  #tellState(): void {
    const failure = this.#failure;
    if (failure === undefined && !this.#toldFailing) return;
    if (failure === undefined) {
      this.#tell({ level: 'info', message: `${this.#path} serves again` });
      return;
    }
    const message = this.#toldFailing
      ? `${this.#path} still cannot serve (${oneLine(failure)}): ${this.#failedSinceTold} calls failed since the last report`
      : `${this.#path} cannot serve (${oneLine(failure)}): answering 503 STORAGE_UNAVAILABLE, and not ready, until it does`;
    this.#tell({ level: this.isMoved || isFileDamage(failure) ? 'error' : 'warn', message, cause: failure });
  }

  #tell(report: StorageReport): void {
    // A line due from the timer is this one.
    clearTimeout(this.#telling);
    this.#telling = undefined;
    this.#toldAt = this.#now();
    this.#toldFailing = report.level !== 'info';
    this.#failedSinceTold = 0;
    this.#report(report);
  }
}

function oneLine(error: Error): string {
  return error.message.replace(/\s+/gu, ' ');
}
