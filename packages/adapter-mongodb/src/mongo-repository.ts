import {
  CREATION_ORDER,
  WorkplanError,
  type AbortSignalLike,
  type CatalogRecord,
  type FoundRecords,
  type Page,
  type ReadOptions,
  type RecordKind,
  type RecordQuery,
  type RecordRepository,
  type TextChange,
} from '@workplan/core';
import { type Collection, type Filter, type IndexDescription, type Sort, type UUID } from 'mongodb';
import { guardDriverCall, isDuplicateKeyError, KEY_INDEX, translateDriverError } from './driver-errors.js';
import { backfillFoldedText } from './folded-text-backfill.js';
import { textFields, toDocument, toRecord, type RecordDocument } from './record-document.js';
import { fromBsonId, toBsonId } from './record-id.js';
import { ORDER_INDEXES, pageFilter, searchFilter, sortOf } from './record-query.js';
import { abortableBy, DEFAULT_TIMEOUT_MS, withinTimeLimit } from './time-limit.js';
import { WriteClaims, type ClaimDocument } from './write-claims.js';

/** The order plain lists follow. */
const LIST_ORDER = sortOf(CREATION_ORDER);

/** Uniqueness of the key, and each order served without an in-memory sort. */
const INDEXES: readonly IndexDescription[] = [{ key: { key: 1 }, name: KEY_INDEX, unique: true }, ...ORDER_INDEXES];

// A key's holder can be deleted between the duplicate-key error and the look-up; then the
// write is tried again. Each retry means another writer took and gave up the key, so a
// create racing deletes ends as created or as a conflict; only a race that never settles
// within this many tries is answered as an outage (never the raw driver error, a 500).
const ATTEMPTS_ON_VANISHED_HOLDER = 50;

export interface MongoRecordRepositoryOptions<F extends string> {
  readonly kind: RecordKind<F>;
  /** The collection holding this kind alone, such as `workSchedules`. */
  readonly collection: Collection<RecordDocument>;
  /** Where conditional writes claim the state they expect, such as `workSchedules.claims`. */
  readonly claims: Collection<ClaimDocument>;
  /** The longest one call may take, all its round trips together; default 2000. */
  readonly timeoutMS?: number;
}

/**
 * Records of one kind in one MongoDB collection. The unique index on `key` enforces
 * uniqueness, so concurrent writers cannot both win. Each call, all its round trips
 * together, takes `timeoutMS` at most; driver outages and calls that run out of time
 * reject with `WorkplanError.storageUnavailable`.
 */
export class MongoRecordRepository<F extends string> implements RecordRepository<F> {
  readonly kind: RecordKind<F>;
  readonly #collection: Collection<RecordDocument>;
  readonly #claims: WriteClaims;
  readonly #timeoutMS: number;

  constructor(options: MongoRecordRepositoryOptions<F>) {
    this.kind = options.kind;
    this.#collection = options.collection;
    this.#timeoutMS = options.timeoutMS ?? DEFAULT_TIMEOUT_MS;
    this.#claims = new WriteClaims(options.claims, this.#timeoutMS);
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
      await this.#withinTime((signal) => guardDriverCall(() => this.#collection.createIndexes([index], abortableBy(signal, {}))));
    }
    await backfillFoldedText(this.kind, this.#collection, this.#claims, this.#timeoutMS);
  }

  async insert(record: CatalogRecord<F>, key: string): Promise<void> {
    const document = toDocument(this.kind, record, key);
    await this.#withinTime((signal) => this.#claimingKey(key, signal, () => this.#collection.insertOne(document, abortableBy(signal, {}))));
  }

  async update(id: string, change: TextChange, expectedUpdatedAt?: Date): Promise<CatalogRecord<F> | undefined> {
    const filter = filterOf(id, expectedUpdatedAt);
    if (filter === undefined) return undefined;
    const $set = { ...textFields(this.kind, change.text), key: change.key, updatedAt: change.updatedAt };
    const updated = await this.#withinTime((signal) =>
      this.#conditionally(id, expectedUpdatedAt, signal, () =>
        this.#claimingKey(change.key, signal, () =>
          this.#collection.findOneAndUpdate(filter, { $set }, abortableBy(signal, { returnDocument: 'after' as const })),
        ),
      ),
    );
    return updated === null || updated === undefined ? undefined : toRecord(this.kind, updated);
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

  async delete(id: string, expectedUpdatedAt?: Date): Promise<boolean> {
    const filter = filterOf(id, expectedUpdatedAt);
    if (filter === undefined) return false;
    const result = await this.#withinTime((signal) =>
      this.#conditionally(id, expectedUpdatedAt, signal, () =>
        guardDriverCall(() => this.#collection.deleteOne(filter, abortableBy(signal, {}))),
      ),
    );
    return result?.deletedCount === 1;
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

  /** Runs a write whose filter expects `expectedUpdatedAt` holding the claim on that state; unconditional writes run as they are. */
  async #conditionally<T>(
    id: string,
    expectedUpdatedAt: Date | undefined,
    signal: AbortSignal,
    write: () => Promise<T>,
  ): Promise<T | undefined> {
    return expectedUpdatedAt === undefined ? write() : this.#claims.exclusively(id, expectedUpdatedAt, signal, write);
  }

  /** Runs a write that sets `key`; when another record holds it, rejects with a conflict naming that record. */
  async #claimingKey<T>(key: string, signal: AbortSignal, write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await write();
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw translateDriverError(error);
        const holder = await guardDriverCall(() => this.#collection.findOne({ key }, { projection: { _id: 1 }, signal }));
        if (holder !== null) throw WorkplanError.conflict(fromBsonId(holder._id));
        if (attempt === ATTEMPTS_ON_VANISHED_HOLDER) throw WorkplanError.storageUnavailable(error);
      }
    }
  }
}

/**
 * The filter of a write to the record with `id`, also matching `expectedUpdatedAt` when
 * given, so the server checks and writes in one step; `undefined` for an id no record can have.
 */
function filterOf(id: string, expectedUpdatedAt: Date | undefined): { _id: UUID; updatedAt?: Date } | undefined {
  const _id = toBsonId(id);
  if (_id === undefined) return undefined;
  return expectedUpdatedAt === undefined ? { _id } : { _id, updatedAt: expectedUpdatedAt };
}
