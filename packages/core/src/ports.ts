import { type Change, type Creation, type Deletion, type Update } from './change.js';
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
   * A read whose signal has aborted before it starts rejects with the signal's reason and
   * reads nothing; one that aborts while it runs either resolves as if it had not, or
   * rejects with that reason (each storage's README says which).
   */
  readonly signal?: AbortSignalLike | undefined;
}

/**
 * Where records of one kind are kept. The storage enforces uniqueness of `key`
 * (rejecting with `WorkplanError.conflict`, naming the record that holds it) so two
 * concurrent writes cannot both win, and lists in `createdAt`, then `id`, order. What a
 * read resolves is a copy: a caller that changes it changes nothing kept.
 *
 * Every write is a change (`Creation`, `Update`, `Deletion`) that the storage carries out
 * and keeps on record in its change log in one atomic step, numbering it in commit order:
 * a write that is refused or fails leaves no change, and one that succeeds is never left
 * without its change, even if the process dies. An update or delete writes only while the
 * record's `updatedAt` is still exactly its `previous.updatedAt`, checking and writing in
 * one atomic step, so of two writes that read the same state one goes ahead and the other
 * finds nothing to change.
 */
export interface RecordRepository<F extends string> {
  /** Inserts `creation.data`, whose uniqueness key is `key`; resolves the change as numbered. */
  insert(creation: Creation<F>, key: string): Promise<Change<F>>;
  /** Writes `update.data` (key `key`); resolves `undefined` when the record is no longer `update.previous`. */
  update(update: Update<F>, key: string): Promise<Change<F> | undefined>;
  /** Removes the record; resolves `undefined` when it is no longer `deletion.previous`. */
  delete(deletion: Deletion<F>): Promise<Change<F> | undefined>;
  findById(id: string, options?: ReadOptions): Promise<CatalogRecord<F> | undefined>;
  list(page: Page, options?: ReadOptions): Promise<CatalogRecord<F>[]>;
  /**
   * The records whose folded text contains `query.search` (every record without one), in
   * `query.order` (ties by id ascending in both directions), from strictly after the place
   * `query.after` names (a record there or not) on, passing over `query.skip` of them and
   * returning at most `query.limit`; with `query.count`, also how many match in all,
   * whatever the page. A walk from page to page, each after the last record of the one
   * before, returns in order, exactly once, every record there throughout, while others are
   * created and deleted between pages (an update moves a record in an order by `updatedAt`
   * or text, so it may be met twice or not at all).
   */
  query(query: RecordQuery, options?: ReadOptions): Promise<FoundRecords<F>>;
  /** How many records there are, every committed write counted. */
  count(options?: ReadOptions): Promise<number>;
}

/**
 * The changes a storage's repositories committed, of every kind, in commit order. A reader
 * that asks again from the last change it read sees every later change exactly once: the
 * log answers only up to a point below which nothing can still commit.
 */
export interface ChangeLog {
  /**
   * At most `limit` changes numbered after `after` (a change's sequence; 0: from the first
   * change kept), oldest first. Rejects with `WorkplanError.cursorExpired` when `after` is
   * not 0 and changes after it were removed by `prune`.
   */
  read(after: number, limit: number, options?: ReadOptions): Promise<Change[]>;
  /**
   * At most `limit` changes kept of the record of kind `kind` with id `recordId`, numbered
   * after `after` (a change's sequence, of any record; 0: from its first change kept), oldest
   * first; `cursorExpired` as `read`.
   */
  history(kind: string, recordId: string, after: number, limit: number, options?: ReadOptions): Promise<Change[]>;
  /**
   * Resolves once a change after `after` may have been committed, after `waitMs` at the
   * latest, or when `options.signal` aborts (never rejecting for either): the caller reads
   * again. It may resolve early, and it resolves on a change committed through this
   * process without waiting out `waitMs`; on one committed by another process sharing the
   * storage, once the storage sees it (each storage's README says how soon).
   */
  waitAfter(after: number, waitMs: number, options?: ReadOptions): Promise<void>;
  /**
   * Removes the changes committed before `before`; resolves how many went. `options.signal`
   * calls it off; as after a failure, what it did not remove is left for a later prune.
   */
  prune(before: Date, options?: ReadOptions): Promise<number>;
}

/** Tells the time; tests fix it. */
export interface Clock {
  now(): Date;
}

/**
 * Resolves in a later turn of the process's event loop, once the I/O that came meanwhile
 * (requests, the storage's answers) has been taken: what long work in the core gives way
 * with, so that a new change handed to thousands of followers does not hold up the writes
 * and requests behind it. In Node, `setImmediate`; the core has no timer of its own.
 */
export type GiveWay = () => Promise<void>;

/** Gives way to nothing: the work goes on in the same turn. The default, for a process with few followers. */
export const noGiveWay: GiveWay = () => Promise.resolve();

/** Makes record ids: UUID version 7, lowercase canonical form. */
export interface IdGenerator {
  next(): string;
}

/** The system's own clock. */
export const systemClock: Clock = Object.freeze({ now: () => new Date() });
