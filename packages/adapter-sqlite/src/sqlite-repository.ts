import {
  assembleRecord,
  CREATION_ORDER,
  numbered,
  WorkplanError,
  type CatalogRecord,
  type Change,
  type ChangeDraft,
  type Creation,
  type Deletion,
  type FoundRecords,
  type Page,
  type ReadOptions,
  type RecordKind,
  type RecordQuery,
  type RecordRepository,
  type Update,
} from '@workplan/core';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { changeStepOf, sequenceOfRow } from './change-table.js';
import { FOLD_TEXT } from './folded-text.js';
import { ChangeWatch, KeptPages } from './kept-pages.js';
import { RECORD_COLUMNS, RecordReads, type QueriedRows } from './record-reads.js';
import { tableNameOf } from './record-table.js';
import { guardSqliteCall, isUniqueViolation, translateSqliteError } from './sqlite-errors.js';
import { sameConnectionReader, type SqliteReader } from './sqlite-reader.js';
import { sameConnectionWriter, type SqliteWriter } from './sqlite-writer.js';
import { type WriteResult, type WriteStep } from './write-statements.js';

/** Where a repository's writes and long reads run, and who hears of each change it commits. */
export interface RepositoryOptions {
  /** By default on the connection itself. */
  readonly writer?: SqliteWriter | undefined;
  /** By default on the connection itself. */
  readonly reader?: SqliteReader | undefined;
  /** Told the sequence of each change committed (`SqliteChangeLog` wakes its waiters). */
  readonly changes?: { noteCommitted(sequence: number): void } | undefined;
}

// A key's holder can be deleted by another connection between the failed write and the
// look-up; then the write is tried again. Each retry means another writer took and gave
// up the key; only a race that never settles within this many tries is an outage.
const ATTEMPTS_ON_VANISHED_HOLDER = 50;

// A read that may walk many records is long, and runs on the reader (a thread of its own for
// a storage on a file: sqlite-reader.ts): a search, which may walk a whole index to fill its
// page, and a page past this many records, as OFFSET walks every record it passes over.
// Shorter pages cost the event loop hardly more than the first page, and are answered
// sooner there than through the thread (figures in docs/benchmarks/README.md).
const SHORT_SKIP = 1000;

function isLong(query: RecordQuery): boolean {
  return query.search !== undefined || query.skip > SHORT_SKIP;
}

/**
 * Records of one kind in their own table. The UNIQUE `key` column settles clashes, even
 * between connections; a lock that does not come free within the busy timeout rejects
 * with `WorkplanError.storageUnavailable`. Each write and its change (change-table.ts) are
 * one transaction: the change is inserted only when the record's statement changed a row,
 * and an update or delete changes one only while the record's `updated_at` is still the
 * draft's `previous.updatedAt`. Reads run on `db`, each seeing every commit
 * made before it, but for long ones (searches, deep pages), which go to `reader`; writes go
 * to `writer`; both on `db` itself unless told otherwise (`SqliteStorage` gives a file a
 * thread for each).
 *
 * Pages listed lately are kept while nothing was committed since (`KeptPages`): writes to
 * the record tables on `db` must go through these repositories, which count them; writes
 * by other connections, a write thread's among them, move SQLite's `data_version`.
 */
export class SqliteRecordRepository<F extends string> implements RecordRepository<F> {
  readonly kind: RecordKind<F>;
  readonly #writer: SqliteWriter;
  readonly #insert: string;
  readonly #update: string;
  readonly #delete: string;
  readonly #changes: RepositoryOptions['changes'];
  readonly #reader: SqliteReader;
  readonly #table: string;
  readonly #reads: RecordReads;
  readonly #findById: StatementSync;
  readonly #holderOf: StatementSync;
  readonly #watch: ChangeWatch;
  readonly #keptPages = new KeptPages<unknown>();

  /** Prepares every statement once; the kind's table must exist (`SqliteStorage.open` makes it). */
  constructor(db: DatabaseSync, kind: RecordKind<F>, options: RepositoryOptions = {}) {
    this.kind = kind;
    this.#watch = ChangeWatch.of(db);
    this.#writer = options.writer ?? sameConnectionWriter(db);
    this.#reader = options.reader ?? sameConnectionReader(db);
    this.#changes = options.changes;
    const table = tableNameOf(kind);
    this.#table = table;
    this.#reads = new RecordReads(db, table);
    // The writer folds the text where it writes it (folded-text.ts).
    this.#insert = `INSERT INTO ${table} (id, "text", "key", created_at, updated_at, folded) VALUES (?1, ?2, ?3, ?4, ?5, ${FOLD_TEXT}(?2))`;
    // The condition sits in the statement's WHERE, so checking and writing are one step.
    this.#update = `UPDATE ${table} SET "text" = ?1, "key" = ?2, updated_at = ?3, folded = ${FOLD_TEXT}(?1) WHERE id = ?4 AND updated_at = ?5`;
    this.#delete = `DELETE FROM ${table} WHERE id = ? AND updated_at = ?`;
    this.#findById = db.prepare(`SELECT ${RECORD_COLUMNS} FROM ${table} WHERE id = ?`);
    this.#holderOf = db.prepare(`SELECT id FROM ${table} WHERE "key" = ?`);
    // Rows as arrays (writers return them so too): node:sqlite then makes no object with
    // named members for each row, which a list of many rows would pay for.
    for (const statement of [this.#findById, this.#holderOf]) statement.setReturnArrays(true);
  }

  async insert(creation: Creation<F>, key: string): Promise<Change<F>> {
    const { id, createdAt, updatedAt } = creation.data;
    const params = [id, creation.data[this.kind.field], key, createdAt.getTime(), updatedAt.getTime()];
    const change = await this.#committing(creation, key, { method: 'run', sql: this.#insert, params });
    // An insert changes its row or fails.
    if (change === undefined) throw new Error(`an insert into ${this.#table} changed no row`);
    return change;
  }

  async update(update: Update<F>, key: string): Promise<Change<F> | undefined> {
    const { data, previous } = update;
    const params = [data[this.kind.field], key, data.updatedAt.getTime(), update.recordId, previous.updatedAt.getTime()];
    return this.#committing(update, key, { method: 'run', sql: this.#update, params });
  }

  // node:sqlite runs a statement to its end once started, so a signal can only call a
  // read off before it starts.
  async findById(id: string, options?: ReadOptions): Promise<CatalogRecord<F> | undefined> {
    options?.signal?.throwIfAborted();
    const row = guardSqliteCall(() => this.#findById.get(id));
    return row === undefined ? undefined : this.#toRecord(row);
  }

  // A page read lately is served from memory while no commit came since (KeptPages); each
  // call still makes new records, so nothing a caller holds can reach the kept rows. The
  // stamp is read first: rows a commit made after it are kept under it, and that commit
  // moves the next stamp (another connection's moves `data_version`; this connection's own
  // write is counted before its promise settles, and no request runs in between), so they
  // are never served stale.
  async list(page: Page, options?: ReadOptions): Promise<CatalogRecord<F>[]> {
    options?.signal?.throwIfAborted();
    const key = `${page.skip}/${page.limit}`;
    const stamp = guardSqliteCall(() => this.#watch.stamp());
    let rows = this.#keptPages.get(key, stamp);
    if (rows === undefined) {
      ({ rows } = await this.#queried({ order: CREATION_ORDER, skip: page.skip, limit: page.limit, count: false }, options));
      this.#keptPages.set(key, stamp, rows);
    }
    return rows.map((row) => this.#toRecord(row));
  }

  async query(query: RecordQuery, options?: ReadOptions): Promise<FoundRecords<F>> {
    options?.signal?.throwIfAborted();
    const { rows, total } = await this.#queried(query, options);
    return { records: rows.map((row) => this.#toRecord(row)), total };
  }

  // A row the table's triggers keep (record-counts.ts): one read, whatever the count.
  async count(options?: ReadOptions): Promise<number> {
    options?.signal?.throwIfAborted();
    return guardSqliteCall(() => this.#reads.count());
  }

  async delete(deletion: Deletion<F>): Promise<Change<F> | undefined> {
    return this.#committing(deletion, undefined, { method: 'run', sql: this.#delete, params: [deletion.recordId, deletion.previous.updatedAt.getTime()] });
  }

  /** Runs a query on the event loop, or, when it is long, on the reader. */
  async #queried(query: RecordQuery, options: ReadOptions | undefined): Promise<QueriedRows> {
    if (!isLong(query)) return guardSqliteCall(() => this.#reads.query(query));
    try {
      return await this.#reader.query(this.#table, query, options?.signal);
    } catch (error) {
      throw translateSqliteError(error);
    }
  }

  /**
   * Writes the record (`step`) and, when that changed a row, the change, in one transaction;
   * answers the change numbered, or undefined when the record's statement changed nothing.
   * The write is counted by the connection's watch whether it changed a row or not.
   */
  async #committing(draft: ChangeDraft<F>, key: string | undefined, step: WriteStep): Promise<Change<F> | undefined> {
    const write = (): Promise<WriteResult[]> => this.#writer.write([step, changeStepOf(this.kind, draft)]);
    let results: WriteResult[];
    try {
      results = await (key === undefined ? write() : this.#claimingKey(key, write));
    } catch (error) {
      throw translateSqliteError(error);
    } finally {
      this.#watch.noteWrite();
    }
    const kept = results[1];
    if (kept === undefined) return undefined;
    const sequence = sequenceOfRow(kept.row);
    this.#changes?.noteCommitted(sequence);
    return numbered(draft, sequence);
  }

  /** Runs a write that sets `key`; when another record holds it, throws a conflict naming that record. */
  async #claimingKey(key: string, write: () => Promise<WriteResult[]>): Promise<WriteResult[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await write();
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const found: unknown = guardSqliteCall(() => this.#holderOf.get(key));
        const holder = Array.isArray(found) ? (found as unknown[])[0] : undefined;
        if (typeof holder === 'string') throw WorkplanError.conflict(holder);
        if (attempt === ATTEMPTS_ON_VANISHED_HOLDER) throw WorkplanError.storageUnavailable(error);
      }
    }
  }

  /** A row of `RECORD_COLUMNS`, in their order (the statements return arrays). */
  #toRecord(row: unknown): CatalogRecord<F> {
    const [id, text, createdAt, updatedAt] = Array.isArray(row) ? (row as unknown[]) : [];
    const shaped = typeof id === 'string' && typeof text === 'string';
    // STRICT columns hold only these types; anything else is a file changed behind our back.
    if (!shaped || typeof createdAt !== 'number' || typeof updatedAt !== 'number') {
      throw new Error(`a row of ${tableNameOf(this.kind)} does not have the shape this code wrote`);
    }
    return assembleRecord(this.kind, { id, text, createdAt: new Date(createdAt), updatedAt: new Date(updatedAt) });
  }
}
