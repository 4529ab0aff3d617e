import { seedKinds, WorkplanError, type ChangeDraft, type Kinds } from '@workplan/core';
import { type Collection } from 'mongodb';
import { toChangeDocument, type ChangeDocument, type OutcomeDocument } from './change-document.js';
import { guardDriverCall, isDuplicateKeyError, translateDriverError } from './driver-errors.js';
import { type RecordDocument } from './record-document.js';
import { toBsonId } from './record-id.js';
import { abortableBy, withinTimeLimit } from './time-limit.js';

/** The record a deletion removed, under `kind/recordId`, and the change that removed it: at most one per record, ever. */
export interface DeletionDocument {
  _id: string;
  change: number;
}

/** The highest change number a prune removed; the highest such document holds. */
export interface PrunedDocument {
  _id: number;
  at: Date;
}

/** Where the change log lives: four collections beside the records'. */
export interface ChangeCollections {
  readonly changes: Collection<ChangeDocument>;
  readonly outcomes: Collection<OutcomeDocument>;
  readonly deletions: Collection<DeletionDocument>;
  readonly pruned: Collection<PrunedDocument>;
}

/**
 * The steps of a recorded write, in order: `claimed` (an update's or delete's claim on the
 * state it expects, write-claims.ts), `numbered` (its change inserted, undecided),
 * `written` (a create's or update's record write, stamped with the change's number),
 * `stamped`, `marked`, `removed` (a delete's stamp, its deletion document, the record's
 * removal), `decided` (the outcome inserted); and `pruned`, the end of a round of a prune
 * (its changes marked and removed).
 */
export type ProtocolStep = 'claimed' | 'numbered' | 'written' | 'stamped' | 'marked' | 'removed' | 'decided' | 'pruned';

export interface ChangeProtocolOptions {
  readonly collections: ChangeCollections;
  /** The collection of the kind named `kind`. */
  readonly records: (kind: string) => Collection<RecordDocument>;
  /** The kinds whose changes are written and read; the seed's by default. */
  readonly kinds?: Kinds | undefined;
  /** How long after a change was numbered its writer's steps may still land. */
  readonly leaseMs: number;
  /** The longest one call may take, all its round trips together. */
  readonly timeoutMS: number;
  /** Called after each step of a write or round of a prune: lets tests end the process between two steps, or (throwing) the write or prune. */
  readonly afterStep?: ((step: ProtocolStep) => void) | undefined;
  /** Called when a change is decided committed through this process. */
  readonly onCommit: (sequence: number) => void;
}

// A writer that keeps finding its number taken reads the highest again after this many
// tries: under contention the next number is most often the free one.
const PROBES_BEFORE_READING = 3;
// When a writer that got no answer looks again whether its step landed, after its call.
const SETTLE_DELAYS_MS = [1000, 5000];
// How many numbers of decided changes a process remembers.
const KEPT_DECIDED = 10_000;
// A writer that finds no free number in this many tries gives up, as an outage.
const NUMBERING_ATTEMPTS = 100;

/**
 * The steps that keep a write and its change together on a server with no multi-document
 * transaction, where inserting a document under a taken `_id` is the one atomic refusal
 * (docs/storage.md, "The change log on MongoDB"): numbering a change by inserting it,
 * deciding its outcome once by inserting that, and deciding, from what a record carries,
 * the outcome of a change whose writer did not.
 */
export class ChangeProtocol {
  readonly #collections: ChangeCollections;
  readonly #records: (kind: string) => Collection<RecordDocument>;
  /** The kinds whose changes it writes and reads. */
  readonly kinds: Kinds;
  readonly #leaseMs: number;
  readonly #timeoutMS: number;
  readonly #afterStep: ((step: ProtocolStep) => void) | undefined;
  readonly #onCommit: (sequence: number) => void;
  /** The number to try next: one this process saw taken or took, plus one; `undefined` to read the highest. */
  #next: number | undefined;
  /** The numbering under way in this process, for the next to wait for. */
  #numbering: Promise<unknown> = Promise.resolve();
  /**
   * Numbers of changes known decided, the latest this process decided: a writer finds most
   * records stamped with one of them, and need not ask the server (on FerretDB each such
   * question reads the whole outcomes collection; figures in docs/benchmarks/README.md).
   * Safe to keep because an outcome never changes: `decide` inserts it under the change's
   * number, the first insert stands, and every later decider reads that one back; nothing
   * removes an outcome but a prune, of changes already decided.
   */
  readonly #decided = new Set<number>();

  constructor(options: ChangeProtocolOptions) {
    this.#collections = options.collections;
    this.#records = options.records;
    this.kinds = options.kinds ?? seedKinds;
    this.#leaseMs = options.leaseMs;
    this.#timeoutMS = options.timeoutMS;
    this.#afterStep = options.afterStep;
    this.#onCommit = options.onCommit;
  }

  /**
   * Marks the end of a step of change `sequence`'s write (for tests). A hook that throws
   * ends the write there as a server that stops answering would: `storageUnavailable`.
   */
  step(name: ProtocolStep, sequence: number): void {
    try {
      this.#afterStep?.(name);
    } catch (error) {
      this.settleSoon(sequence);
      throw WorkplanError.storageUnavailable(error);
    }
  }

  /**
   * Marks the end of a step with no change of its own (for tests): a write's claim taken, a
   * round of a prune. A hook that throws ends the write or prune there, as a lost connection would.
   */
  unnumberedStep(name: 'claimed' | 'pruned'): void {
    try {
      this.#afterStep?.(name);
    } catch (error) {
      throw WorkplanError.storageUnavailable(error);
    }
  }

  /**
   * Inserts `draft`, undecided, under the next number: the highest taken plus one, so a
   * number is taken only once the one before it was, and numbers have no gaps.
   */
  async open<F extends string>(draft: ChangeDraft<F>, signal: AbortSignal): Promise<number> {
    for (;;) {
      const sequence = await this.#inTurn(() => this.#take(draft, signal));
      // A number a prune removed is free again, and a stale guess may have taken it: such a
      // change is below every cursor still served, so it is dropped and numbered again.
      if (sequence > (await this.prunedUpTo(signal))) {
        this.step('numbered', sequence);
        return sequence;
      }
      await guardDriverCall(() => this.#collections.changes.deleteOne({ _id: sequence }, abortableBy(signal, {})));
      this.#next = undefined;
    }
  }

  /**
   * Runs `take` once the numberings this process started before it are done: writers of
   * one process would otherwise all try the same number, and all but one try again.
   */
  async #inTurn<T>(take: () => Promise<T>): Promise<T> {
    const turn = this.#numbering.then(take);
    this.#numbering = turn.catch(() => undefined);
    return turn;
  }

  /** Inserts `draft` under the next free number, as far as this process knows it. */
  async #take<F extends string>(draft: ChangeDraft<F>, signal: AbortSignal): Promise<number> {
    for (let attempt = 1; attempt <= NUMBERING_ATTEMPTS; attempt += 1) {
      const sequence = this.#next ?? (await this.#highest(signal)) + 1;
      try {
        await this.#collections.changes.insertOne(toChangeDocument(draft, sequence, new Date(), this.kinds), abortableBy(signal, {}));
        this.#next = sequence + 1;
        return sequence;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw translateDriverError(error);
        this.#next = attempt % PROBES_BEFORE_READING === 0 ? undefined : sequence + 1;
      }
    }
    throw WorkplanError.storageUnavailable(new Error(`no free change number in ${String(NUMBERING_ATTEMPTS)} tries`));
  }

  /** Decides change `sequence` committed or void, unless it was decided already; resolves what stands. */
  async decide(sequence: number, committed: boolean, signal: AbortSignal): Promise<boolean> {
    const { outcomes } = this.#collections;
    let decided = committed;
    try {
      await outcomes.insertOne({ _id: sequence, committed }, abortableBy(signal, {}));
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw translateDriverError(error);
      const outcome = await guardDriverCall(() => outcomes.findOne({ _id: sequence }, { signal }));
      if (outcome === null) throw WorkplanError.storageUnavailable(new Error(`the outcome of change ${String(sequence)} went while read`));
      decided = outcome.committed;
    }
    this.#remember(sequence);
    this.step('decided', sequence);
    if (decided) this.#onCommit(sequence);
    return decided;
  }

  /**
   * Settles the change whose number the record `document` of `kind` carries, if it is still
   * undecided: the stamp shows its write was carried out, so a create or update is committed,
   * and a delete is carried through. Resolves whether the record still stands.
   */
  async settleStamp(kind: string, document: RecordDocument, signal: AbortSignal): Promise<boolean> {
    const sequence = document.change;
    if (typeof sequence !== 'number') return true;
    if (this.#decided.has(sequence)) return true;
    if ((await guardDriverCall(() => this.#collections.outcomes.findOne({ _id: sequence }, { signal }))) !== null) return true;
    const change = await guardDriverCall(() => this.#collections.changes.findOne({ _id: sequence }, { signal }));
    // Only a prune removes a change that was stamped on a record, and only decided ones.
    if (change === null) return true;
    if (change.action !== 'delete') {
      await this.decide(sequence, true, signal);
      return true;
    }
    return !(await this.#carryOutDeletion(change, signal));
  }

  /** Whether `change`, undecided, is old enough that no step of its writer can still land. */
  isStale(change: ChangeDocument): boolean {
    return Date.now() - change.writtenAt.getTime() > this.#leaseMs;
  }

  /**
   * Decides a change whose writer left it undecided, from what its record shows: a create or
   * update is committed if the record carries its number (a later writer of the record would
   * have settled it before replacing the stamp), a delete if its deletion document or its
   * stamp is there. Only for a stale change, whose writer can no longer add to the evidence.
   */
  async resolve(change: ChangeDocument, signal: AbortSignal): Promise<boolean> {
    return (await this.#decideIfShown(change, signal)) ?? this.decide(change._id, false, signal);
  }

  /**
   * Tries again, a little later and in the background, to decide change `sequence`, whose
   * writer got no answer after numbering it: most often the server was only slow, the step
   * landed, and the record shows it, so the feed need not wait for the lease. Nothing is
   * decided void here: a step with no answer may still land until the lease is over.
   */
  settleSoon(sequence: number): void {
    for (const delay of SETTLE_DELAYS_MS) {
      const timer = setTimeout(() => {
        withinTimeLimit(this.#timeoutMS, undefined, async (signal) => {
          if ((await guardDriverCall(() => this.#collections.outcomes.findOne({ _id: sequence }, { signal }))) !== null) return;
          const change = await guardDriverCall(() => this.#collections.changes.findOne({ _id: sequence }, { signal }));
          if (change !== null) await this.#decideIfShown(change, signal);
        }).catch(() => {
          // Left to the lease: a reader decides it then, from the same evidence.
        });
      }, delay);
      timer.unref();
    }
  }

  /**
   * Decides `change` from what its record shows, carrying a deletion through: committed if
   * the record carries its number (or its deletion document is there), void if another
   * change removed the record; `undefined` when nothing shows it landed.
   */
  async #decideIfShown(change: ChangeDocument, signal: AbortSignal): Promise<boolean | undefined> {
    const _id = toBsonId(change.recordId);
    // No record can have such an id, so no write of it was carried out.
    if (_id === undefined) return undefined;
    const records = this.#records(change.kind);
    if (change.action === 'delete') {
      const deletion = await guardDriverCall(() => this.#collections.deletions.findOne({ _id: deletionName(change) }, { signal }));
      if (deletion !== null) {
        // Removed by another change: this one's stamp can no longer land on it.
        if (deletion.change !== change._id) return this.decide(change._id, false, signal);
        await guardDriverCall(() => records.deleteOne({ _id, change: change._id }, abortableBy(signal, {})));
        return this.decide(change._id, true, signal);
      }
    }
    const record = await guardDriverCall(() => records.findOne({ _id }, { signal, projection: { change: 1 } }));
    if (record?.change !== change._id) return undefined;
    return change.action === 'delete' ? this.#carryOutDeletion(change, signal) : this.decide(change._id, true, signal);
  }

  /**
   * Records that `change` removes its record, once per record: resolves false when another
   * change already did (the record is gone).
   */
  async markDeletion(change: Pick<ChangeDocument, '_id' | 'kind' | 'recordId'>, signal: AbortSignal): Promise<boolean> {
    const { deletions } = this.#collections;
    try {
      await deletions.insertOne({ _id: deletionName(change), change: change._id }, abortableBy(signal, {}));
      return true;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw translateDriverError(error);
      const holder = await guardDriverCall(() => deletions.findOne({ _id: deletionName(change) }, { signal }));
      return holder?.change === change._id;
    }
  }

  /** The highest number a prune removed, 0 when none was. */
  async prunedUpTo(signal: AbortSignal): Promise<number> {
    const [top] = await guardDriverCall(() => this.#collections.pruned.find({}, { signal }).sort({ _id: -1 }).limit(1).toArray());
    return top?._id ?? 0;
  }

  /** Carries out the deletion whose stamp is on its record, and decides it; resolves whether it stands. */
  async #carryOutDeletion(change: ChangeDocument, signal: AbortSignal): Promise<boolean> {
    const _id = toBsonId(change.recordId);
    if (_id === undefined || !(await this.markDeletion(change, signal))) return this.decide(change._id, false, signal);
    await guardDriverCall(() => this.#records(change.kind).deleteOne({ _id, change: change._id }, abortableBy(signal, {})));
    return this.decide(change._id, true, signal);
  }

  /** Adds `sequence` to the numbers known decided, forgetting the oldest beyond `KEPT_DECIDED`. */
  #remember(sequence: number): void {
    this.#decided.add(sequence);
    if (this.#decided.size <= KEPT_DECIDED) return;
    for (const oldest of this.#decided) {
      this.#decided.delete(oldest);
      return;
    }
  }

  /** The highest number taken, or removed by a prune (read after the changes, as a prune marks before it removes). */
  async #highest(signal: AbortSignal): Promise<number> {
    const [top] = await guardDriverCall(() =>
      this.#collections.changes.find({}, { signal, projection: { _id: 1 } }).sort({ _id: -1 }).limit(1).toArray(),
    );
    return Math.max(top?._id ?? 0, await this.prunedUpTo(signal));
  }
}

/** The name of the deletion document of a change's record. */
function deletionName(change: Pick<ChangeDocument, 'kind' | 'recordId'>): string {
  return `${change.kind}/${change.recordId}`;
}
