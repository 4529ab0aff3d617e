import { WorkplanError } from '@workplan/core';
import { MongoBulkWriteError, type Collection } from 'mongodb';
import { guardDriverCall, isDuplicateKeyError, isDuplicateKeyRefusal, translateDriverError } from './driver-errors.js';
import { CLOCK_ALLOWANCE_MS, leaseOf } from './lease.js';
import { abortableBy } from './time-limit.js';

/** A claim on one state of one record, named by the record's id and the `updatedAt` a write expects. */
export interface ClaimDocument {
  _id: string;
  claimedAt: Date;
}

/** One state of one record that a write expects. */
export interface RecordState {
  readonly recordId: string;
  readonly updatedAt: Date;
}

// How long a writer that found the state claimed waits before its caller reads again, so
// that losers of a race do not spin while the winner writes.
const CONTENTION_PAUSE_MS = 10;
// A claim released between our insert and our look-up is tried again, a few times at most.
const ATTEMPTS_ON_RELEASED_CLAIM = 3;

/**
 * Makes a conditional write exclusive across every process sharing the database, on any
 * server speaking MongoDB's protocol. MongoDB applies a findOneAndUpdate's filter in the
 * same step as the write; FerretDB 1.x reads the matching document, then writes it by
 * `_id` (FerretDB#2168), so two writers expecting one state could both win there. So a
 * writer first inserts a claim named after the record and the state it expects: `_id` is
 * unique on every such server, so exactly one claims it. The claim goes when the write is
 * done.
 *
 * A live writer holds its claim for one repository call, `timeoutMS` at most. A claim older
 * than that was left by a writer that had no answer (a stalled server, a crash) and whose
 * write may yet land: writes expecting that state are refused as `storageUnavailable` until
 * the lease ends (`leaseOf(timeoutMS)`, lease.ts); then a successor (its name
 * plus `+`), which again only one writer can insert, supersedes it.
 */
export class WriteClaims {
  readonly #collection: Collection<ClaimDocument>;
  readonly #heldForMs: number;
  readonly #leaseMs: number;

  /**
   * Claims in `collection`, taken by writers whose calls last `timeoutMS` at most, and
   * superseded after `leaseMs` (by default `leaseOf(timeoutMS)`).
   */
  constructor(collection: Collection<ClaimDocument>, timeoutMS: number, leaseMs: number = leaseOf(timeoutMS)) {
    this.#collection = collection;
    this.#heldForMs = timeoutMS + CLOCK_ALLOWANCE_MS;
    this.#leaseMs = Math.max(leaseMs, this.#heldForMs);
  }

  /**
   * Runs `write` holding the claim on `recordId` at `expectedUpdatedAt`, and releases it;
   * resolves `undefined`, after a short pause, when another writer holds that claim.
   * `signal` bounds the driver calls made here, as it bounds those of `write`.
   */
  async exclusively<T>(
    recordId: string,
    expectedUpdatedAt: Date,
    signal: AbortSignal,
    write: () => Promise<T>,
  ): Promise<T | undefined> {
    const claim = await this.#claim(claimName({ recordId, updatedAt: expectedUpdatedAt }), signal);
    if (claim === undefined) {
      await new Promise((resolve) => setTimeout(resolve, CONTENTION_PAUSE_MS));
      return undefined;
    }
    let written: T;
    try {
      written = await write();
    } catch (error) {
      // A write with no answer may still land, so its claim stays until the lease ends.
      if (!isUnanswered(error)) await this.#release(claim, signal);
      throw error;
    }
    await this.#release(claim, signal);
    return written;
  }

  /**
   * Runs `write` holding the claims on those of `states` that no other writer holds, taken
   * and released in one round trip each: for writes of many records at once. Resolves what
   * `write` did with the states it was given, and the states left out, for the caller to
   * write one by one through `exclusively` (which waits out or supersedes their claims).
   */
  async exclusivelyAll<S extends RecordState, T>(
    states: readonly S[],
    signal: AbortSignal,
    write: (claimed: S[]) => Promise<T>,
  ): Promise<{ written: T; unclaimed: S[] }> {
    const taken = new Set(await this.#claimAll(states.map(claimName), signal));
    const isTaken = (state: S) => taken.has(claimName(state));
    let written: T;
    try {
      written = await write(states.filter(isTaken));
    } catch (error) {
      if (!isUnanswered(error)) await this.#releaseAll([...taken], signal);
      throw error;
    }
    await this.#releaseAll([...taken], signal);
    return { written, unclaimed: states.filter((state) => !isTaken(state)) };
  }

  /** Inserts the claims `names`; resolves those inserted, leaving out the ones another writer holds. */
  async #claimAll(names: readonly string[], signal: AbortSignal): Promise<string[]> {
    if (names.length === 0) return [];
    const claimedAt = new Date();
    try {
      await this.#collection.insertMany(names.map((_id) => ({ _id, claimedAt })), abortableBy(signal, { ordered: false }));
      return [...names];
    } catch (error) {
      if (!(error instanceof MongoBulkWriteError)) throw translateDriverError(error);
      const refused = [error.writeErrors].flat();
      const inserted = names.filter((_, i) => !refused.some((refusal) => refusal.index === i));
      if (refused.every(isDuplicateKeyRefusal)) return inserted;
      // Answered, but not only with clashes: the claims that were inserted go, as no write follows.
      await this.#releaseAll(inserted, signal);
      throw translateDriverError(error);
    }
  }

  /** Removes the claims `names`, leaving them to their lease when the removal gets no answer. */
  async #releaseAll(names: readonly string[], signal: AbortSignal): Promise<void> {
    if (names.length === 0) return;
    await this.#collection.deleteMany({ _id: { $in: [...names] } }, abortableBy(signal, {})).catch(() => undefined);
  }

  /** Inserts the claim `name`, or the successor of a left-behind one; `undefined` when a live writer holds it. */
  async #claim(name: string, signal: AbortSignal): Promise<string | undefined> {
    let candidate = name;
    for (let released = 0; released < ATTEMPTS_ON_RELEASED_CLAIM; ) {
      try {
        await this.#collection.insertOne({ _id: candidate, claimedAt: new Date() }, abortableBy(signal, {}));
        return candidate;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw translateDriverError(error);
      }
      const held = await guardDriverCall(() => this.#collection.findOne({ _id: candidate }, { signal }));
      const age = held === null ? undefined : Date.now() - held.claimedAt.getTime();
      if (age === undefined) released += 1;
      else if (age < this.#heldForMs) return undefined;
      else if (age < this.#leaseMs) throw WorkplanError.storageUnavailable(new Error(`claim ${candidate} was left by a write that had no answer`));
      else candidate += '+';
    }
    return undefined;
  }

  /**
   * Removes the claim. The write's outcome stands either way: when the removal gets no
   * answer, the claim is left to its lease, and writers meanwhile get `storageUnavailable`.
   */
  async #release(claim: string, signal: AbortSignal): Promise<void> {
    await this.#collection.deleteOne({ _id: claim }, abortableBy(signal, {})).catch(() => undefined);
  }
}

/** The claim on one state of a record: its id and the `updatedAt` expected, in milliseconds. */
function claimName(state: RecordState): string {
  return `${state.recordId}@${state.updatedAt.getTime()}`;
}

/** Whether a write failed for want of an answer, so that it may still have been carried out. */
function isUnanswered(error: unknown): boolean {
  return WorkplanError.is(error) && error.kind === 'storageUnavailable';
}
