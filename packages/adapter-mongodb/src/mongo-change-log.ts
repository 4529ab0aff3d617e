import { changeIdOf, WorkplanError, type Change, type ChangeLog, type ReadOptions } from '@workplan/core';
import { type IndexDescription } from 'mongodb';
import { toChange, type ChangeDocument } from './change-document.js';
import { ChangeProtocol, type ChangeCollections, type ChangeProtocolOptions } from './change-protocol.js';
import { guardDriverCall, isDuplicateKeyError, translateDriverError } from './driver-errors.js';
import { abortableBy, withinBackgroundLimit, withinTimeLimit } from './time-limit.js';

/** A record's changes in order, for its history. */
const CHANGE_INDEXES: readonly IndexDescription[] = [{ key: { kind: 1, recordId: 1, _id: 1 }, name: 'record_changes' }];
// How often a process with readers waiting asks whether another process committed a change.
const POLL_MS = 150;
// Changes read beyond the limit asked for, as voided numbers take their place in the order.
const READ_AHEAD = 20;
// Changes looked at per round of a prune.
const PRUNE_BATCH = 500;

/** What the log is made of: the protocol's options, but for what a commit wakes, which is the log's own. */
export type MongoChangeLogOptions = Omit<ChangeProtocolOptions, 'onCommit'>;

/** One record, whose changes a history reads. */
interface RecordName {
  readonly kind: string;
  readonly recordId: string;
}

/** A reader waiting for a change after `after`. */
interface Waiter {
  readonly after: number;
  wake(): void;
}

/**
 * The changes of every kind of record, kept in MongoDB by the protocol of change-protocol.ts.
 * A change counts once its outcome says committed; the log serves changes in number order
 * and stops at the first one still undecided, deciding it itself once its writer's lease is
 * over. As numbers are taken in order with no gaps, nothing below the point served can
 * still commit: a reader sees each change once, and none late.
 */
export class MongoChangeLog implements ChangeLog {
  /** How the repositories write their changes. */
  readonly protocol: ChangeProtocol;
  readonly #collections: ChangeCollections;
  readonly #timeoutMS: number;
  readonly #waiters = new Set<Waiter>();
  #polling = false;
  #pollAgain = false;
  #nextPoll: ReturnType<typeof setTimeout> | undefined;

  constructor(options: MongoChangeLogOptions) {
    this.#collections = options.collections;
    this.#timeoutMS = options.timeoutMS;
    this.protocol = new ChangeProtocol({ ...options, onCommit: () => { this.#poll(); } });
  }

  /** Creates the indexes the log relies on; idempotent. */
  async ensureIndexes(): Promise<void> {
    for (const index of CHANGE_INDEXES) {
      await withinBackgroundLimit(this.#timeoutMS, undefined, (signal) =>
        guardDriverCall(() => this.#collections.changes.createIndexes([index], abortableBy(signal, {}))),
      );
    }
  }

  async read(after: number, limit: number, options?: ReadOptions): Promise<Change[]> {
    return this.#served(undefined, after, limit, options);
  }

  async history(kind: string, recordId: string, after: number, limit: number, options?: ReadOptions): Promise<Change[]> {
    return this.#served({ kind, recordId }, after, limit, options);
  }

  async waitAfter(after: number, waitMs: number, options?: ReadOptions): Promise<void> {
    const signal = options?.signal;
    if (signal?.aborted === true) return;
    await new Promise<void>((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(waiter);
        signal?.removeEventListener('abort', wake);
        resolve();
      };
      const waiter: Waiter = { after, wake };
      const timer = setTimeout(wake, waitMs);
      signal?.addEventListener('abort', wake, { once: true });
      this.#waiters.add(waiter);
      this.#poll();
    });
  }

  /**
   * Removes the oldest decided changes made before `before`, a prefix in number order, and
   * marks the highest number removed first, for readers behind it and for numbering;
   * resolves how many committed changes went. It goes a round of `PRUNE_BATCH` changes at
   * a time, each marked and removed before the next is read: a prune cut short (by its
   * limit, its signal or a lost connection) keeps the rounds it finished, so a backlog too
   * long for one prune still shrinks over the next ones.
   */
  async prune(before: Date, options?: ReadOptions): Promise<number> {
    // It runs in the background, over as much as has aged.
    return withinBackgroundLimit(this.#timeoutMS, options?.signal, async (signal) => {
      const start = await this.protocol.prunedUpTo(signal);
      let removed = 0;
      for (let from = start; ; ) {
        const { upTo, committed, more } = await this.#agedRound(from, before, signal);
        if (upTo === from) {
          // A prune cut short between its mark and its removal left changes behind the mark:
          // a round's removal takes them with its own, and with no round they go here.
          if (from === start && start > 0) await this.#removeUpTo(start, signal);
          return removed;
        }
        await this.#mark(upTo, signal);
        await this.#removeUpTo(upTo, signal);
        removed += committed;
        this.protocol.unnumberedStep('pruned');
        if (!more) return removed;
        from = upTo;
      }
    });
  }

  /**
   * Of the next `PRUNE_BATCH` changes after `from`, the highest number up to which every
   * one is decided and made before `before`, how many of them count, and whether changes
   * beyond the round may have aged too.
   */
  async #agedRound(from: number, before: Date, signal: AbortSignal): Promise<{ upTo: number; committed: number; more: boolean }> {
    const batch = await this.#documentsAfter(from, PRUNE_BATCH, signal);
    const outcomes = await this.#outcomesOf(batch, signal);
    let upTo = from;
    let committed = 0;
    for (const document of batch) {
      if (document._id !== upTo + 1 || document.at.getTime() >= before.getTime()) return { upTo, committed, more: false };
      const outcome = await this.#outcome(document, outcomes, signal);
      if (outcome === undefined) return { upTo, committed, more: false };
      upTo = document._id;
      if (outcome) committed += 1;
    }
    return { upTo, committed, more: batch.length === PRUNE_BATCH };
  }

  /** Marks `upTo` as pruned, before anything up to it is removed. */
  async #mark(upTo: number, signal: AbortSignal): Promise<void> {
    try {
      await this.#collections.pruned.insertOne({ _id: upTo, at: new Date() }, abortableBy(signal, {}));
    } catch (error) {
      // Another prune marked the same point.
      if (!isDuplicateKeyError(error)) throw translateDriverError(error);
    }
  }

  /** Removes the changes numbered up to `upTo`, which is marked, and the marks below it. */
  async #removeUpTo(upTo: number, signal: AbortSignal): Promise<void> {
    const { changes, outcomes, deletions, pruned } = this.#collections;
    await guardDriverCall(async () => {
      await changes.deleteMany({ _id: { $lte: upTo } }, abortableBy(signal, {}));
      await outcomes.deleteMany({ _id: { $lte: upTo } }, abortableBy(signal, {}));
      await deletions.deleteMany({ change: { $lte: upTo } }, abortableBy(signal, {}));
      await pruned.deleteMany({ _id: { $lt: upTo } }, abortableBy(signal, {}));
    });
  }

  /**
   * At most `limit` committed changes after `after`, of every record or of `record`, from the
   * first change kept when `after` is 0 or behind it; `cursorExpired` when a prune removed
   * what follows `after`. The pruned mark is read after the changes: a prune marks before it
   * removes, so a removal the read met shows there, and a change left behind the mark by a
   * prune cut short is gone though still in the collection.
   */
  async #served(record: RecordName | undefined, after: number, limit: number, options: ReadOptions | undefined): Promise<Change[]> {
    return withinTimeLimit(this.#timeoutMS, options?.signal, async (signal) => {
      for (let from = Math.max(after, await this.protocol.prunedUpTo(signal)); ; ) {
        const changes = await this.#committedAfter(record, from, limit, signal);
        const pruned = await this.protocol.prunedUpTo(signal);
        if (after !== 0 && after < pruned) throw WorkplanError.cursorExpired(changeIdOf(after));
        if (from >= pruned) return changes;
        from = pruned;
      }
    });
  }

  /**
   * At most `limit` committed changes after `after`, of every record or of `record` (from
   * the index on the record), up to the first one still undecided: nothing after it is
   * served yet, as it may still commit (and its record refuses writes while it is undecided).
   */
  async #committedAfter(record: RecordName | undefined, after: number, limit: number, signal: AbortSignal): Promise<Change[]> {
    const found: Change[] = [];
    for (let last = after; found.length < limit; ) {
      const wanted = limit - found.length + READ_AHEAD;
      const batch = await this.#documentsAfter(last, wanted, signal, record);
      const outcomes = await this.#outcomesOf(batch, signal);
      for (const document of batch) {
        // Numbers have no gaps above the pruned ones: in the feed, a missing one is not taken yet.
        if (record === undefined && document._id !== last + 1) return found;
        const outcome = await this.#outcome(document, outcomes, signal);
        if (outcome === undefined) return found;
        last = document._id;
        if (outcome) found.push(toChange(document, this.protocol.kinds));
        if (found.length === limit) return found;
      }
      if (batch.length < wanted) return found;
    }
    return found;
  }

  /** At most `limit` change documents numbered after `after`, of every record or of `record`, in order. */
  async #documentsAfter(after: number, limit: number, signal: AbortSignal, record?: RecordName): Promise<ChangeDocument[]> {
    return guardDriverCall(() =>
      this.#collections.changes
        .find({ ...record, _id: { $gt: after } }, { signal, maxTimeMS: this.#timeoutMS })
        .sort({ _id: 1 })
        .limit(limit)
        .toArray(),
    );
  }

  /** The outcomes decided of `documents`' changes, by number. */
  async #outcomesOf(documents: readonly ChangeDocument[], signal: AbortSignal): Promise<Map<number, boolean>> {
    if (documents.length === 0) return new Map();
    const ids = documents.map((document) => document._id);
    const outcomes = await guardDriverCall(() => this.#collections.outcomes.find({ _id: { $in: ids } }, { signal }).toArray());
    return new Map(outcomes.map((outcome) => [outcome._id, outcome.committed]));
  }

  /** Whether `document`'s change counts: as decided, or decided now if its writer's lease is over; `undefined` while it may still commit. */
  async #outcome(document: ChangeDocument, outcomes: ReadonlyMap<number, boolean>, signal: AbortSignal): Promise<boolean | undefined> {
    const decided = outcomes.get(document._id);
    if (decided !== undefined) return decided;
    return this.protocol.isStale(document) ? this.protocol.resolve(document, signal) : undefined;
  }

  /** Whether a change numbered after `after` was decided committed (it may not be served yet, behind an undecided one). */
  async #committedSince(after: number): Promise<boolean> {
    return withinTimeLimit(this.#timeoutMS, undefined, async (signal) => {
      const outcome = await guardDriverCall(() =>
        this.#collections.outcomes.findOne({ _id: { $gt: after }, committed: true }, { signal, projection: { _id: 1 } }),
      );
      return outcome !== null;
    });
  }

  /**
   * Asks now whether a change followed what the waiting readers have, and again every
   * `POLL_MS` while any waits; wakes those behind the first change found. A change
   * committed through this process asks at once.
   */
  #poll(): void {
    if (this.#waiters.size === 0) return;
    if (this.#polling) {
      this.#pollAgain = true;
      return;
    }
    clearTimeout(this.#nextPoll);
    this.#polling = true;
    void this.#wakeThoseBehind().finally(() => {
      this.#polling = false;
      if (this.#pollAgain) {
        this.#pollAgain = false;
        this.#poll();
      } else if (this.#waiters.size > 0) {
        this.#nextPoll = setTimeout(() => { this.#poll(); }, POLL_MS);
      }
    });
  }

  async #wakeThoseBehind(): Promise<void> {
    const after = Math.min(...[...this.#waiters].map((waiter) => waiter.after));
    let first: number;
    try {
      // A look at the outcomes alone first: small documents, and on FerretDB, which reads a
      // whole collection for each query, far fewer bytes than the changes while nothing moves.
      if (!(await this.#committedSince(after))) return;
      const [change] = await this.read(after, 1);
      if (change === undefined) return;
      first = Number(change.id);
    } catch {
      // Every waiter reads again, and meets the failure there, where it is answered.
      first = Infinity;
    }
    for (const waiter of this.#waiters) if (waiter.after < first) waiter.wake();
  }
}
