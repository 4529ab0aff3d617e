import {
  comparePositions,
  foldText,
  positionOf,
  type RecordQuery,
  type FoundRecords,
  assembleRecord,
  WorkplanError,
  type CatalogRecord,
  type Page,
  type ReadOptions,
  type RecordKind,
  type RecordRepository,
  type TextChange,
} from '@workplan/core';

/** A record as kept: plain values only, so nothing a caller holds can reach it. */
interface Entry {
  readonly id: string;
  readonly text: string;
  readonly key: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/**
 * Records of one kind in memory, with a database's guarantees: a unique key, and a
 * list kept in `createdAt`, then `id`, order so a page is a slice.
 */
export class MemoryRecordRepository<F extends string> implements RecordRepository<F> {
  readonly #kind: RecordKind<F>;
  readonly #byId = new Map<string, Entry>();
  readonly #idByKey = new Map<string, string>();
  readonly #ordered: Entry[] = [];

  constructor(kind: RecordKind<F>) {
    this.#kind = kind;
  }

  async insert(record: CatalogRecord<F>, key: string): Promise<void> {
    this.#claimKey(key, record.id);
    const entry: Entry = {
      id: record.id,
      text: record[this.#kind.field],
      key,
      createdAt: record.createdAt.getTime(),
      updatedAt: record.updatedAt.getTime(),
    };
    this.#byId.set(entry.id, entry);
    this.#ordered.splice(this.#positionOf(entry), 0, entry);
  }

  async update(id: string, change: TextChange, expectedUpdatedAt?: Date): Promise<CatalogRecord<F> | undefined> {
    const current = this.#matching(id, expectedUpdatedAt);
    if (current === undefined) return undefined;
    this.#claimKey(change.key, id);
    if (current.key !== change.key) this.#idByKey.delete(current.key);
    const updated: Entry = { ...current, text: change.text, key: change.key, updatedAt: change.updatedAt.getTime() };
    this.#byId.set(id, updated);
    this.#ordered[this.#positionOf(current)] = updated;
    return this.#toRecord(updated);
  }

  // A read here is done in one step, so a signal can only call it off before it starts.
  async findById(id: string, options?: ReadOptions): Promise<CatalogRecord<F> | undefined> {
    options?.signal?.throwIfAborted();
    const entry = this.#byId.get(id);
    return entry && this.#toRecord(entry);
  }

  async list(page: Page, options?: ReadOptions): Promise<CatalogRecord<F>[]> {
    options?.signal?.throwIfAborted();
    const slice = this.#ordered.slice(page.skip, page.skip + page.limit);
    return slice.map((entry) => this.#toRecord(entry));
  }

  // NAIVE, to check the contract suite; replaced by indexed orders.
  async query(query: RecordQuery, options?: ReadOptions): Promise<FoundRecords<F>> {
    options?.signal?.throwIfAborted();
    const field = this.#kind.field;
    const matching = this.#ordered.map((entry) => this.#toRecord(entry)).filter((record) => query.search === undefined || foldText(record[field]).includes(query.search));
    const pos = (r: CatalogRecord<F>) => positionOf(r, field, query.order);
    matching.sort((a, b) => comparePositions(pos(a), pos(b), query.order));
    const after = query.after;
    const rest = after === undefined ? matching : matching.filter((r) => comparePositions(after, pos(r), query.order) < 0);
    const records = rest.slice(query.skip, query.skip + query.limit);
    return query.count ? { records, total: matching.length } : { records };
  }

  async count(options?: ReadOptions): Promise<number> {
    options?.signal?.throwIfAborted();
    return this.#byId.size;
  }

  async delete(id: string, expectedUpdatedAt?: Date): Promise<boolean> {
    const entry = this.#matching(id, expectedUpdatedAt);
    if (entry === undefined) return false;
    this.#byId.delete(id);
    this.#idByKey.delete(entry.key);
    this.#ordered.splice(this.#positionOf(entry), 1);
    return true;
  }

  /**
   * The entry with `id`, if it still has `expectedUpdatedAt` when one is given. The caller
   * writes before its next await, so the check and the write are one step.
   */
  #matching(id: string, expectedUpdatedAt: Date | undefined): Entry | undefined {
    const entry = this.#byId.get(id);
    if (entry === undefined || expectedUpdatedAt === undefined) return entry;
    return entry.updatedAt === expectedUpdatedAt.getTime() ? entry : undefined;
  }

  /** Takes `key` for `id`, or rejects with a conflict naming the record that holds it. */
  #claimKey(key: string, id: string): void {
    const holder = this.#idByKey.get(key);
    if (holder !== undefined && holder !== id) throw WorkplanError.conflict(holder);
    this.#idByKey.set(key, id);
  }

  /** Where `entry` stands, or would stand, in list order (binary search). */
  #positionOf(entry: Entry): number {
    let low = 0;
    let high = this.#ordered.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const other = this.#ordered[middle] as Entry;
      if (compareListOrder(other, entry) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #toRecord(entry: Entry): CatalogRecord<F> {
    return assembleRecord(this.#kind, {
      id: entry.id,
      text: entry.text,
      createdAt: new Date(entry.createdAt),
      updatedAt: new Date(entry.updatedAt),
    });
  }
}

function compareListOrder(a: Entry, b: Entry): number {
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  if (a.id === b.id) return 0;
  return a.id < b.id ? -1 : 1;
}
