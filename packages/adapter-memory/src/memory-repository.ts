import {
  assembleRecord,
  foldText,
  WorkplanError,
  type CatalogRecord,
  type FoundRecords,
  type Page,
  type ReadOptions,
  type RecordKind,
  type RecordQuery,
  type RecordRepository,
  type SortField,
  type Change,
  type Creation,
  type Deletion,
  type Update,
} from '@workplan/core';
import { MemoryChangeLog } from './memory-change-log.js';
import { codePointKey } from './code-point-key.js';
import { KeptOrder } from './kept-order.js';
import { OrderWalk, rankAfter } from './order-walk.js';
import { processScanLane, type ScanLane } from './scan-lane.js';
import { SearchScan } from './search-scan.js';

/** A record as kept: plain values only, so nothing a caller holds can reach it. */
interface Entry {
  readonly id: string;
  readonly text: string;
  readonly key: string;
  /** The text as searches compare it (`foldText`). */
  readonly folded: string;
  /** The folded text as the text order compares it (`codePointKey`). */
  readonly textKey: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface MemoryRepositoryOptions {
  /** Where searches run; by default the lane every repository of the process shares. */
  readonly lane?: ScanLane;
  /** Where writes are kept on record; by default a log of this repository's own. */
  readonly changes?: MemoryChangeLog;
}

/**
 * Records of one kind in memory, with a database's guarantees: a unique key, and each
 * order a list may take (by `createdAt`, `updatedAt` or folded text, then `id`) kept as
 * records are written, so a page of any of them, at any depth, is a few binary searches
 * and a slice, and a count is the number of records.
 *
 * A search goes through the records in the order asked for, on the process's scan lane
 * (`ScanLane`): a slice at a time, so it never holds up other requests for long. It sees
 * the records as they were when it was asked: a record written while it runs is found as
 * it was before, or not at all if it is new, and none is found twice.
 */
export class MemoryRecordRepository<F extends string> implements RecordRepository<F> {
  readonly #kind: RecordKind<F>;
  readonly #lane: ScanLane;
  readonly #changes: MemoryChangeLog;
  readonly #byId = new Map<string, Entry>();
  readonly #idByKey = new Map<string, string>();
  readonly #orders: Readonly<Record<SortField, KeptOrder<Entry>>> = {
    createdAt: new KeptOrder((entry) => entry.createdAt),
    updatedAt: new KeptOrder((entry) => entry.updatedAt),
    text: new KeptOrder(
      (entry) => entry.textKey,
      (value) => codePointKey(String(value)),
    ),
  };
  readonly #everyOrder = Object.values(this.#orders);

  constructor(kind: RecordKind<F>, options: MemoryRepositoryOptions = {}) {
    this.#kind = kind;
    this.#lane = options.lane ?? processScanLane;
    this.#changes = options.changes ?? new MemoryChangeLog();
  }

  // Each write and its change are made with nothing awaited between them: one step.
  async insert(creation: Creation<F>, key: string): Promise<Change<F>> {
    const record = creation.data;
    this.#claimKey(key, record.id);
    const text = record[this.#kind.field];
    const folded = foldText(text);
    const entry: Entry = {
      id: record.id,
      text,
      key,
      folded,
      textKey: codePointKey(folded),
      createdAt: record.createdAt.getTime(),
      updatedAt: record.updatedAt.getTime(),
    };
    this.#byId.set(entry.id, entry);
    for (const order of this.#everyOrder) order.insert(entry);
    return this.#changes.append(creation);
  }

  async update(update: Update<F>, key: string): Promise<Change<F> | undefined> {
    const id = update.recordId;
    const current = this.#matching(id, update.previous.updatedAt);
    if (current === undefined) return undefined;
    this.#claimKey(key, id);
    if (current.key !== key) this.#idByKey.delete(current.key);
    const text = update.data[this.#kind.field];
    const folded = current.text === text ? current.folded : foldText(text);
    const textKey = folded === current.folded ? current.textKey : codePointKey(folded);
    const updated: Entry = { ...current, text, key, folded, textKey, updatedAt: update.data.updatedAt.getTime() };
    this.#byId.set(id, updated);
    for (const order of this.#everyOrder) {
      // In place where the record keeps its place; else out and in again.
      if (order.valueOf(current) === order.valueOf(updated)) order.replace(updated);
      else {
        order.remove(current);
        order.insert(updated);
      }
    }
    return this.#changes.append(update);
  }

  // A read here is done in one step, so a signal can only call it off before it starts.
  async findById(id: string, options?: ReadOptions): Promise<CatalogRecord<F> | undefined> {
    options?.signal?.throwIfAborted();
    const entry = this.#byId.get(id);
    return entry && this.#toRecord(entry);
  }

  async list(page: Page, options?: ReadOptions): Promise<CatalogRecord<F>[]> {
    options?.signal?.throwIfAborted();
    const slice = this.#orders.createdAt.slice(page.skip, page.skip + page.limit);
    return slice.map((entry) => this.#toRecord(entry));
  }

  async query(query: RecordQuery, options?: ReadOptions): Promise<FoundRecords<F>> {
    options?.signal?.throwIfAborted();
    return query.search === undefined ? this.#pageOf(query) : this.#search(query, query.search, options);
  }

  /** A page of an order, from a rank found in a few binary searches: done at once, however deep. */
  #pageOf(query: RecordQuery): FoundRecords<F> {
    const { order, after, skip, limit } = query;
    const view = this.#orders[order.field].view();
    const walk = new OrderWalk(view, order.descending, (after === undefined ? 0 : rankAfter(view, order.descending, after)) + skip);
    const records: CatalogRecord<F>[] = [];
    for (let entry = walk.next(); entry !== undefined && records.length < limit; entry = walk.next()) records.push(this.#toRecord(entry));
    return query.count ? { records, total: this.#byId.size } : { records };
  }

  /** A page of the matches of `search`, through the order as it is now, on the scan lane. */
  async #search(query: RecordQuery, search: string, options: ReadOptions | undefined): Promise<FoundRecords<F>> {
    const { order, after } = query;
    const view = this.#orders[order.field].snapshot();
    const { count } = query;
    // Counted in the order of creation, mostly the order entries lie in memory: the fastest to go through.
    const everyEntry = count ? this.#orders.createdAt.snapshot() : view;
    const found = await this.#lane.run(() => {
      const walk = new OrderWalk(view, order.descending, after === undefined ? 0 : rankAfter(view, order.descending, after));
      const matches = (entry: Entry): boolean => entry.folded.includes(search);
      return new SearchScan({ walk, everyEntry, matches, skip: query.skip, limit: query.limit, count, fromStart: after === undefined });
    }, options?.signal);
    const records = found.entries.map((entry) => this.#toRecord(entry));
    return found.total === undefined ? { records } : { records, total: found.total };
  }

  async count(options?: ReadOptions): Promise<number> {
    options?.signal?.throwIfAborted();
    return this.#byId.size;
  }

  async delete(deletion: Deletion<F>): Promise<Change<F> | undefined> {
    const id = deletion.recordId;
    const entry = this.#matching(id, deletion.previous.updatedAt);
    if (entry === undefined) return undefined;
    this.#byId.delete(id);
    this.#idByKey.delete(entry.key);
    for (const order of this.#everyOrder) order.remove(entry);
    return this.#changes.append(deletion);
  }

  /**
   * The entry with `id`, if it still has `expectedUpdatedAt`. The caller writes before its
   * next await, so the check and the write are one step.
   */
  #matching(id: string, expectedUpdatedAt: Date): Entry | undefined {
    const entry = this.#byId.get(id);
    return entry !== undefined && entry.updatedAt === expectedUpdatedAt.getTime() ? entry : undefined;
  }

  /** Takes `key` for `id`, or rejects with a conflict naming the record that holds it. */
  #claimKey(key: string, id: string): void {
    const holder = this.#idByKey.get(key);
    if (holder !== undefined && holder !== id) throw WorkplanError.conflict(holder);
    this.#idByKey.set(key, id);
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
