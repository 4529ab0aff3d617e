import { type DatabaseSync, type StatementSync } from 'node:sqlite';

/**
 * One read transaction that the reads of a connection share for the rest of a turn of
 * the event loop: begun by the turn's first read, ended at the end of the turn
 * (`setImmediate`), or sooner by `endTurnReads`.
 *
 * Why: each read outside a transaction takes and drops a lock on the `-shm` file, two
 * `fcntl` calls that cost a find about a third of its throughput on a loaded two-core
 * machine (docs/benchmarks); under load a turn serves many requests, and they share one
 * pair.
 *
 * What a read then sees: every commit made before the turn's first read, in any process.
 * A request is read from its socket in the turn that serves it, so a request sent after a
 * write was acknowledged, by any process, sees that write; the one exception is a request
 * that arrives while its turn is already under way and is read in it (another request
 * before it on the same keep-alive connection, not yet answered; or more than 1024 sockets
 * ready at once). The storage's own writes end the transaction when answered, so a read
 * after a write of this thread sees it.
 */
class TurnTransaction {
  readonly #db: DatabaseSync;
  readonly #begin: StatementSync;
  readonly #commit: StatementSync;
  #open = false;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#begin = db.prepare('BEGIN');
    this.#commit = db.prepare('COMMIT');
  }

  get isOpen(): boolean {
    return this.#open;
  }

  /** Opens the turn's transaction unless it is open; SQLite takes the snapshot at the first read in it. */
  join(): void {
    if (this.#open || !this.#db.isOpen || this.#db.isTransaction) return;
    this.#begin.run();
    this.#open = true;
    openTransactions.add(this);
    setImmediate(() => {
      this.end();
    });
  }

  /** Ends it, if open: the next read takes a new snapshot. */
  end(): void {
    if (!this.#open) return;
    this.#open = false;
    openTransactions.delete(this);
    // Only reads ran in it, so COMMIT just lets the snapshot go.
    if (this.#db.isOpen && this.#db.isTransaction) this.#commit.run();
  }
}

const sharing = new WeakMap<DatabaseSync, TurnTransaction>();
const openTransactions = new Set<TurnTransaction>();

/**
 * Makes the reads on `db` run in the transaction of their turn. Only for a connection
 * whose owner writes through another one: a write on `db` itself, or a caller's BEGIN,
 * would land in that transaction.
 */
export function shareReadsPerTurn(db: DatabaseSync): void {
  if (!sharing.has(db)) sharing.set(db, new TurnTransaction(db));
}

/** Runs `read` on `db`, in the transaction of the turn when `db` shares one. */
export function readInTurn<T>(db: DatabaseSync, read: () => T): T {
  sharing.get(db)?.join();
  return read();
}

/** Ends the turn's transaction of every connection in this thread: reads after this see every commit made before. */
export function endTurnReads(): void {
  for (const transaction of openTransactions) transaction.end();
}

/** Whether the transaction `db` is in is the turn's own, which only reads. */
export function isInTurnTransaction(db: DatabaseSync): boolean {
  return sharing.get(db)?.isOpen === true;
}
