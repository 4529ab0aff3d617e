import {
  assembleRecord,
  comparePositions,
  CREATION_ORDER,
  foldText,
  positionOf,
  WorkplanError,
  type CatalogRecord,
  type Change,
  type Creation,
  type Deletion,
  type FoundRecords,
  type Page,
  type ReadOptions,
  type RecordKind,
  type RecordOrder,
  type RecordQuery,
  type RecordRepository,
  type Update,
} from '@workplan/core';
import { MemoryChangeLog } from './memory-change-log.js';

/** A record as kept, and its uniqueness key. */
interface Entry<F extends string> {
  readonly record: CatalogRecord<F>;
  readonly key: string;
}

export interface MemoryRepositoryOptions {
  /** Where writes are kept on record; by default a log of this repository's own. */
  readonly changes?: MemoryChangeLog;
}

/**
 * Records of one kind in a map by id, the reference for every other storage: a query
 * filters and sorts all of them, a count is the map's size. A plain list is a slice of
 * the ids kept in creation order (see `#inCreationOrder`). Each write and its change are
 * made with nothing awaited between them, so a write is one atomic step, its conditions
 * checked in it, and changes are numbered in commit order. Records are copied in and out,
 * so nothing a caller holds can reach what is kept.
 */
export class MemoryRecordRepository<F extends string> implements RecordRepository<F> {
  readonly #kind: RecordKind<F>;
  readonly #changes: MemoryChangeLog;
  readonly #entries = new Map<string, Entry<F>>();
  /** The uniqueness index: the id of the record holding each key. */
  readonly #idByKey = new Map<string, string>();
  /**
   * The ids in creation order (`CREATION_ORDER`), kept so that a plain list, the console's
   * and every follower's usual read, is a slice rather than a sort of every record
   * (docs/benchmarks/README.md, "Caches and tricks, measured": the target it serves).
   * Invariant: it holds the id of every record kept, once, in the order of their
   * `positionOf(record, field, CREATION_ORDER)`; each write places or removes its record
   * by that position, found by binary search, in the same step as the write. Pinned by
   * `memory-repository.test.ts` (out-of-order creations, ties, deletions).
   */
  readonly #inCreationOrder: string[] = [];
  constructor(kind: RecordKind<F>, options: MemoryRepositoryOptions = {}) {
    this.#kind = kind;
    this.#changes = options.changes ?? new MemoryChangeLog();
  }

  async insert(creation: Creation<F>, key: string): Promise<Change<F>> {
    this.#claimKey(key, creation.recordId);
    const record = this.#copy(creation.data);
    // An id is never created twice (ids are unique); were it, the record would still be listed once.
    this.#unplace(creation.recordId);
    this.#entries.set(creation.recordId, { record, key });
    this.#place(record);
    return this.#changes.append(creation);
  }

  async update(update: Update<F>, key: string): Promise<Change<F> | undefined> {
    if (!this.#isStill(update.recordId, update.previous.updatedAt)) return undefined;
    this.#claimKey(key, update.recordId);
    // Nothing that can throw between taking the record out of the order and putting it back.
    const record = this.#copy(update.data);
    this.#unplace(update.recordId);
    this.#entries.set(update.recordId, { record, key });
    this.#place(record);
    return this.#changes.append(update);
  }

  async delete(deletion: Deletion<F>): Promise<Change<F> | undefined> {
    if (!this.#isStill(deletion.recordId, deletion.previous.updatedAt)) return undefined;
    this.#releaseKeyOf(deletion.recordId);
    this.#unplace(deletion.recordId);
    this.#entries.delete(deletion.recordId);
    return this.#changes.append(deletion);
  }

  async findById(id: string, options?: ReadOptions): Promise<CatalogRecord<F> | undefined> {
    options?.signal?.throwIfAborted();
    const entry = this.#entries.get(id);
    return entry && this.#copy(entry.record);
  }

  async list(page: Page, options?: ReadOptions): Promise<CatalogRecord<F>[]> {
    options?.signal?.throwIfAborted();
    return this.#inCreationOrder.slice(page.skip, page.skip + page.limit).map((id) => this.#copy((this.#entries.get(id) as Entry<F>).record));
  }

  async query(query: RecordQuery, options?: ReadOptions): Promise<FoundRecords<F>> {
    options?.signal?.throwIfAborted();
    const { search, order, after } = query;
    const field = this.#kind.field;
    const matching = this.#records().filter((record) => search === undefined || foldText(record[field]).includes(search));
    const past = after === undefined ? matching : matching.filter((record) => comparePositions(positionOf(record, field, order), after, order) > 0);
    const records = this.#sorted(past, order).slice(query.skip, query.skip + query.limit).map((record) => this.#copy(record));
    return query.count ? { records, total: matching.length } : { records };
  }

  async count(options?: ReadOptions): Promise<number> {
    options?.signal?.throwIfAborted();
    return this.#entries.size;
  }

  #records(): CatalogRecord<F>[] {
    return Array.from(this.#entries.values(), (entry) => entry.record);
  }

  /** `records` in `order`, each placed once. */
  #sorted(records: readonly CatalogRecord<F>[], order: RecordOrder): CatalogRecord<F>[] {
    const placed = records.map((record) => ({ record, position: positionOf(record, this.#kind.field, order) }));
    return placed.sort((a, b) => comparePositions(a.position, b.position, order)).map(({ record }) => record);
  }

  /** Puts `record`'s id at its place in creation order. */
  #place(record: CatalogRecord<F>): void {
    this.#inCreationOrder.splice(this.#creationIndexOf(record), 0, record.id);
  }

  /** Takes out the id of the record kept with `id`, found at the place its kept state gives. */
  #unplace(id: string): void {
    const kept = this.#entries.get(id)?.record;
    if (kept === undefined) return;
    const index = this.#creationIndexOf(kept);
    if (this.#inCreationOrder[index] === id) this.#inCreationOrder.splice(index, 1);
  }

  /** The first index whose record does not come before `record` in creation order. */
  #creationIndexOf(record: CatalogRecord<F>): number {
    const field = this.#kind.field;
    const position = positionOf(record, field, CREATION_ORDER);
    let low = 0;
    let high = this.#inCreationOrder.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const kept = (this.#entries.get(this.#inCreationOrder[middle] as string) as Entry<F>).record;
      if (comparePositions(positionOf(kept, field, CREATION_ORDER), position, CREATION_ORDER) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Whether the record with `id` is there and still has `updatedAt`. */
  #isStill(id: string, updatedAt: Date): boolean {
    return this.#entries.get(id)?.record.updatedAt.getTime() === updatedAt.getTime();
  }

  /** Takes `key` for `id`, giving up the key `id` held; rejects with a conflict naming the record that holds it. */
  #claimKey(key: string, id: string): void {
    const holder = this.#idByKey.get(key);
    if (holder !== undefined && holder !== id) throw WorkplanError.conflict(holder);
    this.#releaseKeyOf(id);
    this.#idByKey.set(key, id);
  }

  #releaseKeyOf(id: string): void {
    const held = this.#entries.get(id)?.key;
    if (held !== undefined) this.#idByKey.delete(held);
  }

  #copy(record: CatalogRecord<F>): CatalogRecord<F> {
    const { id, createdAt, updatedAt } = record;
    return assembleRecord(this.#kind, { id, text: record[this.#kind.field], createdAt: new Date(createdAt), updatedAt: new Date(updatedAt) });
  }
}
