import { numbered, WorkplanError, type Change, type ChangeDraft, type Creation, type Deletion, type RecordKind, type Update } from '@workplan/core';
import { type Collection, type UUID } from 'mongodb';
import { type ChangeProtocol } from './change-protocol.js';
import { guardDriverCall, isDuplicateKeyError, translateDriverError } from './driver-errors.js';
import { textFields, toDocument, type RecordDocument } from './record-document.js';
import { fromBsonId, toBsonId } from './record-id.js';
import { abortableBy } from './time-limit.js';
import { type WriteClaims } from './write-claims.js';

// A key's holder can be deleted between the duplicate-key error and the look-up; then the
// write is tried again. Each retry means another writer took and gave up the key, so a
// create racing deletes ends as created or as a conflict; only a race that never settles
// within this many tries is answered as an outage (never the raw driver error, a 500).
const ATTEMPTS_ON_VANISHED_HOLDER = 50;

export interface RecordWritesOptions<F extends string> {
  readonly kind: RecordKind<F>;
  readonly collection: Collection<RecordDocument>;
  readonly claims: WriteClaims;
  readonly protocol: ChangeProtocol;
}

/**
 * The writes of one kind's records, each kept with its change in the steps of
 * change-protocol.ts: numbered, written with the change's number on the record, decided.
 * An update or delete runs under the claim on the state it expects (write-claims.ts). Each
 * takes the signal that bounds the repository call.
 */
export class RecordWrites<F extends string> {
  readonly #kind: RecordKind<F>;
  readonly #collection: Collection<RecordDocument>;
  readonly #claims: WriteClaims;
  readonly #protocol: ChangeProtocol;

  constructor(options: RecordWritesOptions<F>) {
    this.#kind = options.kind;
    this.#collection = options.collection;
    this.#claims = options.claims;
    this.#protocol = options.protocol;
  }

  async insert(creation: Creation<F>, key: string, signal: AbortSignal): Promise<Change<F>> {
    const document = toDocument(this.#kind, creation.data, key);
    const sequence = await this.#protocol.open(creation, signal);
    await this.#undecidedUnlessRefused(sequence, signal, () =>
      this.#claimingKey(key, signal, () => this.#collection.insertOne({ ...document, change: sequence }, abortableBy(signal, {}))),
    );
    this.#protocol.step('written', sequence);
    return this.#committed(creation, sequence, signal);
  }

  async update(update: Update<F>, key: string, signal: AbortSignal): Promise<Change<F> | undefined> {
    const filter = filterOf(update.recordId, update.previous.updatedAt);
    if (filter === undefined) return undefined;
    const $set = { ...textFields(this.#kind, update.data[this.#kind.field]), key, updatedAt: update.data.updatedAt };
    return this.#claims.exclusively(update.recordId, update.previous.updatedAt, signal, async () => {
      this.#protocol.unnumberedStep('claimed');
      if (!(await this.#standsAsExpected(filter, signal))) return undefined;
      const sequence = await this.#protocol.open(update, signal);
      const updated = await this.#undecidedUnlessRefused(sequence, signal, () =>
        this.#claimingKey(key, signal, () => this.#collection.updateOne(filter, { $set: { ...$set, change: sequence } }, abortableBy(signal, {}))),
      );
      if (updated.matchedCount === 0) return this.#refused(sequence, signal);
      this.#protocol.step('written', sequence);
      return this.#committed(update, sequence, signal);
    });
  }

  /**
   * Removes the record in four steps, as the removal itself leaves nothing to show which
   * change made it: stamps the record with the change, records the deletion (once per
   * record), removes it, decides. Whoever finds the stamp or the deletion document of an
   * undecided change carries the rest out (change-protocol.ts).
   */
  async delete(deletion: Deletion<F>, signal: AbortSignal): Promise<Change<F> | undefined> {
    const filter = filterOf(deletion.recordId, deletion.previous.updatedAt);
    if (filter === undefined) return undefined;
    return this.#claims.exclusively(deletion.recordId, deletion.previous.updatedAt, signal, async () => {
      this.#protocol.unnumberedStep('claimed');
      if (!(await this.#standsAsExpected(filter, signal))) return undefined;
      const sequence = await this.#protocol.open(deletion, signal);
      const stamped = await this.#undecidedUnlessRefused(sequence, signal, () =>
        guardDriverCall(() => this.#collection.updateOne(filter, { $set: { change: sequence } }, abortableBy(signal, {}))),
      );
      if (stamped.matchedCount === 0) return this.#refused(sequence, signal);
      this.#protocol.step('stamped', sequence);
      const change = { _id: sequence, kind: deletion.kind, recordId: deletion.recordId };
      if (!(await this.#undecidedUnlessRefused(sequence, signal, () => this.#protocol.markDeletion(change, signal)))) {
        return this.#refused(sequence, signal);
      }
      this.#protocol.step('marked', sequence);
      await this.#undecidedUnlessRefused(sequence, signal, () =>
        guardDriverCall(() => this.#collection.deleteOne({ _id: filter._id, change: sequence }, abortableBy(signal, {}))),
      );
      this.#protocol.step('removed', sequence);
      return this.#committed(deletion, sequence, signal);
    });
  }

  /**
   * Whether the record is still in the state `filter` expects, once any change its stamp
   * names is settled (a later change of a record is numbered only after the one before it
   * is decided, so a record's changes are numbered in the order they happened).
   */
  async #standsAsExpected(filter: RecordFilter, signal: AbortSignal): Promise<boolean> {
    const current = await guardDriverCall(() => this.#collection.findOne({ _id: filter._id }, { signal, projection: { updatedAt: 1, change: 1 } }));
    if (current === null || current.updatedAt.getTime() !== filter.updatedAt.getTime()) return false;
    return this.#protocol.settleStamp(this.#kind.name, current, signal);
  }

  /**
   * Runs a step of change `sequence`'s write. A refusal (a conflict) voids the change; any
   * other failure leaves it undecided, as the step may have landed, and is answered as an
   * outage: the change is looked at again shortly, committed if its step shows on the
   * record, and the write's claim is kept until its lease ends, when a reader decides it.
   */
  async #undecidedUnlessRefused<T>(sequence: number, signal: AbortSignal, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (WorkplanError.is(error) && error.kind === 'conflict') {
        await this.#protocol.decide(sequence, false, signal);
        throw error;
      }
      this.#protocol.settleSoon(sequence);
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
    const committed = await this.#undecidedUnlessRefused(sequence, signal, () => this.#protocol.decide(sequence, true, signal));
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
