import {
  WorkplanError,
  type CatalogRecord,
  type Page,
  type RecordKind,
  type RecordRepository,
  type TextChange,
} from '@workplan/core';
import { type Collection, type IndexDescription, type UUID } from 'mongodb';
import { guardDriverCall, isDuplicateKeyError, KEY_INDEX, translateDriverError } from './driver-errors.js';
import { toDocument, toRecord, type RecordDocument } from './record-document.js';
import { fromBsonId, toBsonId } from './record-id.js';
import { WriteClaims, type ClaimDocument } from './write-claims.js';

/** The order lists follow. */
const LIST_ORDER = { createdAt: 1, _id: 1 } as const;

/** Uniqueness of the key, and the list order served without an in-memory sort. */
const INDEXES: readonly IndexDescription[] = [
  { key: { key: 1 }, name: KEY_INDEX, unique: true },
  { key: LIST_ORDER, name: 'createdAt_id' },
];

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
}

/**
 * Records of one kind in one MongoDB collection. The unique index on `key` enforces
 * uniqueness, so concurrent writers cannot both win; driver outages reject with
 * `WorkplanError.storageUnavailable`.
 */
export class MongoRecordRepository<F extends string> implements RecordRepository<F> {
  readonly kind: RecordKind<F>;
  readonly #collection: Collection<RecordDocument>;
  readonly #claims: WriteClaims;

  constructor(options: MongoRecordRepositoryOptions<F>) {
    this.kind = options.kind;
    this.#collection = options.collection;
    this.#claims = new WriteClaims(options.claims);
  }

  /** Creates the indexes the repository relies on; safe to call on every start. */
  async ensureIndexes(): Promise<void> {
    // One index per command: FerretDB 1.24 drops the connection when one createIndexes
    // names several indexes that already exist.
    for (const index of INDEXES) await guardDriverCall(() => this.#collection.createIndexes([index]));
  }

  async insert(record: CatalogRecord<F>, key: string): Promise<void> {
    const document = toDocument(this.kind, record, key);
    await this.#claimingKey(key, () => this.#collection.insertOne(document));
  }

  async update(id: string, change: TextChange, expectedUpdatedAt?: Date): Promise<CatalogRecord<F> | undefined> {
    const filter = filterOf(id, expectedUpdatedAt);
    if (filter === undefined) return undefined;
    const $set = { [this.kind.field]: change.text, key: change.key, updatedAt: change.updatedAt };
    const updated = await this.#conditionally(id, expectedUpdatedAt, () =>
      this.#claimingKey(change.key, () => this.#collection.findOneAndUpdate(filter, { $set }, { returnDocument: 'after' })),
    );
    return updated === null || updated === undefined ? undefined : toRecord(this.kind, updated);
  }

  async findById(id: string): Promise<CatalogRecord<F> | undefined> {
    const _id = toBsonId(id);
    if (_id === undefined) return undefined;
    const found = await guardDriverCall(() => this.#collection.findOne({ _id }));
    return found === null ? undefined : toRecord(this.kind, found);
  }

  async list(page: Page): Promise<CatalogRecord<F>[]> {
    // MongoDB reads a limit of 0 as "no limit"; the port means "nothing".
    if (page.limit < 1) return [];
    const documents = await guardDriverCall(() =>
      this.#collection.find({}).sort(LIST_ORDER).skip(page.skip).limit(page.limit).toArray(),
    );
    return documents.map((document) => toRecord(this.kind, document));
  }

  async delete(id: string, expectedUpdatedAt?: Date): Promise<boolean> {
    const filter = filterOf(id, expectedUpdatedAt);
    if (filter === undefined) return false;
    const result = await this.#conditionally(id, expectedUpdatedAt, () => guardDriverCall(() => this.#collection.deleteOne(filter)));
    return result?.deletedCount === 1;
  }

  /** Runs a write whose filter expects `expectedUpdatedAt` holding the claim on that state; unconditional writes run as they are. */
  async #conditionally<T>(id: string, expectedUpdatedAt: Date | undefined, write: () => Promise<T>): Promise<T | undefined> {
    return expectedUpdatedAt === undefined ? write() : this.#claims.exclusively(id, expectedUpdatedAt, write);
  }

  /** Runs a write that sets `key`; when another record holds it, rejects with a conflict naming that record. */
  async #claimingKey<T>(key: string, write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await write();
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw translateDriverError(error);
        const holder = await guardDriverCall(() => this.#collection.findOne({ key }, { projection: { _id: 1 } }));
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
