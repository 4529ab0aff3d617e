import { type DatabaseSync, type StatementSync } from 'node:sqlite';

/**
 * One read transaction that the reads of a connection share for the rest of a turn of
 * the event loop: begun by the turn's first read, ended by an immediate callback (at the
 * end of the turn, for a read made in an I/O callback), or sooner by `endTurnReads`.
 *
 * Why: each read outside a transaction takes and drops a lock on the `-shm` file, two
 * `fcntl` calls; under load a turn serves many requests, and they share one pair. And a
 * turn's reads share whatever was learnt of the snapshot (`ChangeWatch` reads its stamp
 * once), so a record found in an earlier turn is served again while nothing was committed.
 *
 * What a read then sees: every commit made before the turn's first read, in any process;
 * a commit made later in the turn by another connection is seen from the next turn on. A
 * server reads a request from its socket in the turn that serves it, so a request sent
 * after a write was acknowledged, by any process, sees that write; the exception is a
 * request that arrives while its turn is under way and is read in it (behind another one
 * on the same keep-alive connection not yet answered, or with more than 1024 sockets
 * ready at once). Writes of this thread end the transaction when answered, so a read after
 * one sees it. That reasoning holds for reads made in I/O callbacks, as a server's are: a
 * read in a timer or an immediate callback opens a transaction that lasts through the I/O
 * callbacks after it.
 */
class TurnTransaction {
  readonly #db: DatabaseSync;
  readonly #begin: StatementSync;
  readonly #commit: StatementSync;
  readonly #holdOff: () => boolean;
  /** The open transaction's number, unique in the thread (a turn may have several: see endTurnReads). */
  #number: number | undefined;

  constructor(db: DatabaseSync, holdOff: () => boolean) {
    this.#db = db;
    this.#holdOff = holdOff;
    this.#begin = db.prepare('BEGIN');
    this.#commit = db.prepare('COMMIT');
  }

  /** The open transaction's number; undefined while none is open. */
  get number(): number | undefined {
    return this.#number;
  }

  /** Opens the turn's transaction unless it is open; SQLite takes the snapshot at the first read in it. */
  join(): void {
    if (this.#number !== undefined || !this.#db.isOpen || this.#db.isTransaction || this.#holdOff()) return;
    this.#begin.run();
    this.#number = (transactionsBegun += 1);
    openTransactions.add(this);
    setImmediate(() => {
      this.end();
    });
  }

  /** Ends it, if open: the next read takes a new snapshot. */
  end(): void {
    if (this.#number === undefined) return;
    this.#number = undefined;
    openTransactions.delete(this);
    if (!this.#db.isOpen || !this.#db.isTransaction) return;
    try {
      // Only reads ran in it, so COMMIT just lets the snapshot go.
      this.#commit.run();
    } catch {
      this.#rollBack();
    }
  }

  /** Never left open: every later read would see this snapshot. */
  #rollBack(): void {
    try {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
    } catch {
      // A connection that cannot roll back is broken: its next read says so.
    }
  }
}

const sharing = new WeakMap<DatabaseSync, TurnTransaction>();
const openTransactions = new Set<TurnTransaction>();
let transactionsBegun = 0;

/**
 * Makes the reads on `db` run in the transaction of their turn, save while `holdOff()`
 * says (then each read runs alone, holding its snapshot for a moment only: see
 * wal-limit.ts). Only for a connection whose owner writes through another one: a write on
 * `db` itself, or a caller's BEGIN, would land in that transaction.
 */
export function shareReadsPerTurn(db: DatabaseSync, holdOff: () => boolean = () => false): void {
  if (!sharing.has(db)) sharing.set(db, new TurnTransaction(db, holdOff));
}

/** Runs `read` on `db`, in the transaction of the turn when `db` shares one. */
export function readInTurn<T>(db: DatabaseSync, read: () => T): T {
  const transaction = sharing.get(db);
  transaction?.join();
  try {
    return read();
  } catch (error) {
    // SQLite may have rolled the transaction back (an I/O error, memory full): the next
    // read begins another rather than read outside one while taking this one for open.
    transaction?.end();
    throw error;
  }
}

/**
 * Ends the turn's transaction of every connection in this thread, whatever its file: reads
 * after this see every commit made before. A storage calls it when a write is answered, so
 * that the write is seen by the reads after it, through any storage of the thread.
 */
export function endTurnReads(): void {
  for (const transaction of openTransactions) transaction.end();
}

/** Whether the reads on `db` share the transaction of their turn. */
export function sharesReadsPerTurn(db: DatabaseSync): boolean {
  return sharing.has(db);
}

/**
 * The number of the turn's transaction `db` is in, unique in the thread; undefined when
 * `db` is in none, or in a caller's own.
 */
export function turnTransactionOf(db: DatabaseSync): number | undefined {
  return sharing.get(db)?.number;
}
