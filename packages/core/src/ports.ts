import { type CatalogRecord } from './record.js';
import { type FoundRecords, type RecordQuery } from './record-query.js';

/** A window on the list: pass over `skip` records, return at most `limit`. */
export interface Page {
  readonly skip: number;
  readonly limit: number;
}

/**
 * What a read looks at of a standard `AbortSignal` (pass one): the core names no platform's
 * types, so it spells out the little it needs.
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** How a read may be called off. */
export interface ReadOptions {
  /**
   * Once it aborts, the read rejects with its reason and the storage stops the work where
   * it can (a query in progress on MongoDB; SQLite and memory only check before starting).
   */
  readonly signal?: AbortSignalLike | undefined;
}

/** What an update writes: the new text, its uniqueness key, and the new `updatedAt`. */
export interface TextChange {
  readonly text: string;
  readonly key: string;
  readonly updatedAt: Date;
}

/**
 * Where records of one kind are kept. The storage enforces uniqueness of `key`
 * (rejecting with `WorkplanError.conflict`) so two concurrent writes cannot both win,
 * and lists in `createdAt`, then `id`, order.
 *
 * Update and delete take the `updatedAt` the caller read, when it has one: the storage
 * then changes the record only if its `updatedAt` is still exactly that, checking and
 * writing in one atomic step, so of two writes that read the same state one goes ahead
 * and the other finds nothing to change.
 */
export interface RecordRepository<F extends string> {
  insert(record: CatalogRecord<F>, key: string): Promise<void>;
  /** Resolves `undefined` when no record has the id (and, if given, `expectedUpdatedAt`). */
  update(id: string, change: TextChange, expectedUpdatedAt?: Date): Promise<CatalogRecord<F> | undefined>;
  findById(id: string, options?: ReadOptions): Promise<CatalogRecord<F> | undefined>;
  list(page: Page, options?: ReadOptions): Promise<CatalogRecord<F>[]>;
  /**
   * A page of the records matching `query.search`, in `query.order` (ties by id ascending),
   * after `query.after`; with `query.count`, their number too. Its cost must not grow with
   * how deep `after` is, and a long one (a search over many records) must not hold up
   * other reads of the process for long: see the repository contract.
   */
  query(query: RecordQuery, options?: ReadOptions): Promise<FoundRecords<F>>;
  /** How many records there are; cheap enough to answer beside every page. */
  count(options?: ReadOptions): Promise<number>;
  /** Resolves whether a record with the id (and, if given, `expectedUpdatedAt`) was removed. */
  delete(id: string, expectedUpdatedAt?: Date): Promise<boolean>;
}

/** Tells the time; tests fix it. */
export interface Clock {
  now(): Date;
}

/** Makes record ids: UUID version 7, lowercase canonical form. */
export interface IdGenerator {
  next(): string;
}

/** The system's own clock. */
export const systemClock: Clock = { now: () => new Date() };
