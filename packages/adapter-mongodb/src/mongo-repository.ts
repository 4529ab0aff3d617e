import {
  CREATION_ORDER,
  type Change,
  type Creation,
  type Deletion,
  type Update,
  type AbortSignalLike,
  type CatalogRecord,
  type FoundRecords,
  type Page,
  type ReadOptions,
  type RecordKind,
  type RecordQuery,
  type RecordRepository,
} from '@workplan/core';
import { type Collection, type Filter, type IndexDescription, type Sort } from 'mongodb';
import { type ChangeProtocol } from './change-protocol.js';
import { guardDriverCall, KEY_INDEX } from './driver-errors.js';
import { backfillFoldedText } from './folded-text-backfill.js';
import { toRecord, type RecordDocument } from './record-document.js';
import { toBsonId } from './record-id.js';
import { ORDER_INDEXES, pageFilter, searchFilter, sortOf } from './record-query.js';
import { RecordWrites } from './record-writes.js';
import { abortableBy, DEFAULT_TIMEOUT_MS, withinBackgroundLimit, withinTimeLimit } from './time-limit.js';
import { WriteClaims, type ClaimDocument } from './write-claims.js';

/** The order plain lists follow. */
const LIST_ORDER = sortOf(CREATION_ORDER);

/** Uniqueness of the key, and each order served without an in-memory sort. */
const INDEXES: readonly IndexDescription[] = [{ key: { key: 1 }, name: KEY_INDEX, unique: true }, ...ORDER_INDEXES];

export interface MongoRecordRepositoryOptions<F extends string> {
  readonly kind: RecordKind<F>;
  /** The collection holding this kind alone, such as `workSchedules`. */
  readonly collection: Collection<RecordDocument>;
  /** Where conditional writes claim the state they expect, such as `workSchedules.claims`. */
  readonly claims: Collection<ClaimDocument>;
  /** Where each write keeps its change, and how (change-protocol.ts). */
  readonly protocol: ChangeProtocol;
  /** The longest one call may take, all its round trips together; default 2000. */
  readonly timeoutMS?: number;
  /** How long a write with no answer may still land; default `leaseOf(timeoutMS)`. */
  readonly leaseMs?: number;
}

/**
 * Records of one kind in one MongoDB collection, each write kept with its change
 * (record-writes.ts). The unique index on `key` enforces uniqueness, so concurrent writers
 * cannot both win. Each call, all its round trips
 * together, takes `timeoutMS` at most; driver outages and calls that run out of time
 * reject with `WorkplanError.storageUnavailable`.
 */
export class MongoRecordRepository<F extends string> implements RecordRepository<F> {
  readonly kind: RecordKind<F>;
  readonly #collection: Collection<RecordDocument>;
  readonly #claims: WriteClaims;
  readonly #writes: RecordWrites<F>;
  readonly #timeoutMS: number;

  constructor(options: MongoRecordRepositoryOptions<F>) {
    this.kind = options.kind;
    this.#collection = options.collection;
    this.#timeoutMS = options.timeoutMS ?? DEFAULT_TIMEOUT_MS;
    this.#claims = new WriteClaims(options.claims, this.#timeoutMS, options.leaseMs);
    this.#writes = new RecordWrites({ kind: this.kind, collection: this.#collection, claims: this.#claims, protocol: options.protocol });
  }

  /**
   * Creates the indexes the repository relies on, and gives the documents stored before
   * the folded text was kept theirs, which its index and every query rely on; safe to call
   * on every start, and from several instances at once.
   */
  async ensureIndexes(): Promise<void> {
    // One index per command: FerretDB 1.24 drops the connection when one createIndexes
    // names several indexes that already exist.
    for (const index of INDEXES) {
      await withinBackgroundLimit(this.#timeoutMS, undefined, (signal) => guardDriverCall(() => this.#collection.createIndexes([index], abortableBy(signal, {}))));
    }
    await backfillFoldedText(this.kind, this.#collection, this.#claims, this.#timeoutMS);
  }

  async insert(creation: Creation<F>, key: string): Promise<Change<F>> {
    return this.#withinTime((signal) => this.#writes.insert(creation, key, signal));
  }

  async update(update: Update<F>, key: string): Promise<Change<F> | undefined> {
    return this.#withinTime((signal) => this.#writes.update(update, key, signal));
  }

  async findById(id: string, options?: ReadOptions): Promise<CatalogRecord<F> | undefined> {
    options?.signal?.throwIfAborted();
    const _id = toBsonId(id);
    if (_id === undefined) return undefined;
    const found = await this.#withinTime(
      (signal) => guardDriverCall(() => this.#collection.findOne({ _id }, { signal, maxTimeMS: this.#timeoutMS })),
      options?.signal,
    );
    return found === null ? undefined : toRecord(this.kind, found);
  }

  async list(page: Page, options?: ReadOptions): Promise<CatalogRecord<F>[]> {
    return this.#find({}, LIST_ORDER, page, options);
  }

  async query(query: RecordQuery, options?: ReadOptions): Promise<FoundRecords<F>> {
    options?.signal?.throwIfAborted();
    const filter = pageFilter(query);
    if (!query.count) return { records: await this.#find(filter, sortOf(query.order), query, options) };
    const [records, total] = await Promise.all([
      this.#find(filter, sortOf(query.order), query, options),
      this.#count(searchFilter(query.search), options),
    ]);
    return { records, total };
  }

  /**
   * Counts every document: exact, and a read of the whole collection (MongoDB keeps no exact
   * count it could answer from; `estimatedDocumentCount` may be wrong after a crash).
   */
  async count(options?: ReadOptions): Promise<number> {
    options?.signal?.throwIfAborted();
    return this.#count({}, options);
  }

  async delete(deletion: Deletion<F>): Promise<Change<F> | undefined> {
    return this.#withinTime((signal) => this.#writes.delete(deletion, signal));
  }

  /** The page of the documents matching `filter` in `sort`, as records. */
  async #find(filter: Filter<RecordDocument>, sort: Sort, page: Page, options: ReadOptions | undefined): Promise<CatalogRecord<F>[]> {
    options?.signal?.throwIfAborted();
    // MongoDB reads a limit of 0 as "no limit"; the port means "nothing".
    if (page.limit < 1) return [];
    // maxTimeMS has the server itself end the query when the time is up: FerretDB goes on
    // with a query whose client has left, and ends it only then. A signal that aborts
    // closes the cursor and the connection it was read from.
    const documents = await this.#withinTime(
      (signal) =>
        guardDriverCall(() =>
          this.#collection.find(filter, { signal, maxTimeMS: this.#timeoutMS }).sort(sort).skip(page.skip).limit(page.limit).toArray(),
        ),
      options?.signal,
    );
    return documents.map((document) => toRecord(this.kind, document));
  }

  /** How many documents match `filter`, bounded in time as a find is. */
  async #count(filter: Filter<RecordDocument>, options: ReadOptions | undefined): Promise<number> {
    return this.#withinTime(
      (signal) => guardDriverCall(() => this.#collection.countDocuments(filter, { signal, maxTimeMS: this.#timeoutMS })),
      options?.signal,
    );
  }

  /** Runs `call` with a signal for its driver calls that ends them all when the call's time is up, or when `caller` aborts. */
  async #withinTime<T>(call: (signal: AbortSignal) => Promise<T>, caller?: AbortSignalLike): Promise<T> {
    return withinTimeLimit(this.#timeoutMS, caller, call);
  }
}
