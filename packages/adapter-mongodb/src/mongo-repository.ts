import {
  CREATION_ORDER,
  numbered,
  WorkplanError,
  type Change,
  type ChangeDraft,
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
import { type Collection, type Filter, type IndexDescription, type Sort, type UUID } from 'mongodb';
import { type ChangeProtocol } from './change-protocol.js';
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
  /** Where each write keeps its change, and how (change-protocol.ts). */
  readonly protocol: ChangeProtocol;
  /** The longest one call may take, all its round trips together; default 2000. */
  readonly timeoutMS?: number;
  /** How long a write with no answer may still land; default `leaseOf(timeoutMS)`. */
  readonly leaseMs?: number;
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
  readonly #protocol: ChangeProtocol;
  readonly #timeoutMS: number;

  constructor(options: MongoRecordRepositoryOptions<F>) {
    this.kind = options.kind;
    this.#collection = options.collection;
    this.#timeoutMS = options.timeoutMS ?? DEFAULT_TIMEOUT_MS;
    this.#claims = new WriteClaims(options.claims, this.#timeoutMS, options.leaseMs);
    this.#protocol = options.protocol;
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

  async insert(creation: Creation<F>, key: string): Promise<Change<F>> {
    const document = toDocument(this.kind, creation.data, key);
    return this.#withinTime(async (signal) => {
      const sequence = await this.#protocol.open(creation, signal);
      await this.#undecidedUnlessRefused(sequence, signal, () =>
        this.#claimingKey(key, signal, () => this.#collection.insertOne({ ...document, change: sequence }, abortableBy(signal, {}))),
      );
      this.#protocol.step('written');
      return this.#committed(creation, sequence, signal);
    });
  }

  async update(update: Update<F>, key: string): Promise<Change<F> | undefined> {
    const filter = filterOf(update.recordId, update.previous.updatedAt);
    if (filter === undefined) return undefined;
    const $set = { ...textFields(this.kind, update.data[this.kind.field]), key, updatedAt: update.data.updatedAt };
    return this.#withinTime((signal) =>
      this.#claims.exclusively(update.recordId, update.previous.updatedAt, signal, async () => {
        if (!(await this.#standsAsExpected(filter, signal))) return undefined;
        const sequence = await this.#protocol.open(update, signal);
        const updated = await this.#undecidedUnlessRefused(sequence, signal, () =>
          this.#claimingKey(key, signal, () => this.#collection.updateOne(filter, { $set: { ...$set, change: sequence } }, abortableBy(signal, {}))),
        );
        if (updated.matchedCount === 0) return this.#refused(sequence, signal);
        this.#protocol.step('written');
        return this.#committed(update, sequence, signal);
      }),
    );
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

  /**
   * Removes the record in four steps, as the removal itself leaves nothing to show which
   * change made it: stamps the record with the change, records the deletion (once per
   * record), removes it, decides. Whoever finds the stamp or the deletion document of an
   * undecided change carries the rest out (change-protocol.ts).
   */
  async delete(deletion: Deletion<F>): Promise<Change<F> | undefined> {
    const filter = filterOf(deletion.recordId, deletion.previous.updatedAt);
    if (filter === undefined) return undefined;
    return this.#withinTime((signal) =>
      this.#claims.exclusively(deletion.recordId, deletion.previous.updatedAt, signal, async () => {
        if (!(await this.#standsAsExpected(filter, signal))) return undefined;
        const sequence = await this.#protocol.open(deletion, signal);
        const stamped = await this.#undecidedUnlessRefused(sequence, signal, () =>
          guardDriverCall(() => this.#collection.updateOne(filter, { $set: { change: sequence } }, abortableBy(signal, {}))),
        );
        if (stamped.matchedCount === 0) return this.#refused(sequence, signal);
        this.#protocol.step('stamped');
        const change = { _id: sequence, kind: deletion.kind, recordId: deletion.recordId };
        if (!(await this.#undecidedUnlessRefused(sequence, signal, () => this.#protocol.markDeletion(change, signal)))) {
          return this.#refused(sequence, signal);
        }
        this.#protocol.step('marked');
        await this.#undecidedUnlessRefused(sequence, signal, () =>
          guardDriverCall(() => this.#collection.deleteOne({ _id: filter._id, change: sequence }, abortableBy(signal, {}))),
        );
        this.#protocol.step('removed');
        return this.#committed(deletion, sequence, signal);
      }),
    );
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

  /**
   * Whether the record is still in the state `filter` expects, once any change its stamp
   * names is settled (a later change of a record is numbered only after the one before it
   * is decided, so a record's changes are numbered in the order they happened).
   */
  async #standsAsExpected(filter: RecordFilter, signal: AbortSignal): Promise<boolean> {
    const current = await guardDriverCall(() => this.#collection.findOne({ _id: filter._id }, { signal, projection: { updatedAt: 1, change: 1 } }));
    if (current === null || current.updatedAt.getTime() !== filter.updatedAt.getTime()) return false;
    return this.#protocol.settleStamp(this.kind.name, current, signal);
  }

  /**
   * Runs a step of change `sequence`'s write. A refusal (a conflict) voids the change; any
   * other failure leaves it undecided, as the step may have landed, and is answered as an
   * outage: the write's claim is then kept until its lease ends, when a reader decides it.
   */
  async #undecidedUnlessRefused<T>(sequence: number, signal: AbortSignal, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (WorkplanError.is(error) && error.kind === 'conflict') {
        await this.#protocol.decide(sequence, false, signal);
        throw error;
      }
      throw WorkplanError.is(error) ? error : WorkplanError.storageUnavailable(error);
    }
  }

  /** Voids change `sequence`, whose write found the record no longer as expected. */
  async #refused(sequence: number, signal: AbortSignal): Promise<undefined> {
    await this.#protocol.decide(sequence, false, signal);
    return undefined;
  }

  /** Decides change `sequence` committed, its write carried out; resolves it numbered. */
  async #committed(draft: ChangeDraft<F>, sequence: number, signal: AbortSignal): Promise<Change<F>> {
    const committed = await this.#protocol.decide(sequence, true, signal);
    // Only a write that landed after its lease can be voided by a reader: the lease is too short for the server.
    if (!committed) throw new Error(`change ${String(sequence)} was decided void by a reader though its write landed`);
    return numbered(draft, sequence);
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

/** A write's filter: the record and the state the write expects (a type, as the driver's filters take no interface). */
type RecordFilter = { readonly _id: UUID; readonly updatedAt: Date };

/**
 * The filter of a write to the record with `id` still at `expectedUpdatedAt`, so the server
 * checks and writes in one step (MongoDB; on FerretDB the write claim makes it one);
 * `undefined` for an id no record can have.
 */
function filterOf(id: string, expectedUpdatedAt: Date): RecordFilter | undefined {
  const _id = toBsonId(id);
  return _id === undefined ? undefined : { _id, updatedAt: expectedUpdatedAt };
}
