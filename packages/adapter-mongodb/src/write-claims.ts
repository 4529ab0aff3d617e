import { type Collection } from 'mongodb';
import { guardDriverCall, isDuplicateKeyError, translateDriverError } from './driver-errors.js';

/** A claim on one state of one record, named by the record's id and the `updatedAt` a write expects. */
export interface ClaimDocument {
  _id: string;
  claimedAt: Date;
}

// A claim older than this was left by a writer that stopped between claiming and releasing
// (a crash, a lost connection): every driver call it makes is bounded far below this.
const CLAIM_LEASE_MS = 30_000;
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
 * done. A claim older than the lease is superseded by its successor (its name plus `+`),
 * which again only one writer can insert.
 */
export class WriteClaims {
  readonly #collection: Collection<ClaimDocument>;

  constructor(collection: Collection<ClaimDocument>) {
    this.#collection = collection;
  }

  /**
   * Runs `write` holding the claim on `recordId` at `expectedUpdatedAt`, and releases it;
   * resolves `undefined`, after a short pause, when another writer holds that claim.
   */
  async exclusively<T>(recordId: string, expectedUpdatedAt: Date, write: () => Promise<T>): Promise<T | undefined> {
    const claim = await this.#claim(`${recordId}@${expectedUpdatedAt.getTime()}`);
    if (claim === undefined) {
      await new Promise((resolve) => setTimeout(resolve, CONTENTION_PAUSE_MS));
      return undefined;
    }
    try {
      return await write();
    } finally {
      await guardDriverCall(() => this.#collection.deleteOne({ _id: claim }));
    }
  }

  /** Inserts the claim `name`, or the successor of a left-behind one; `undefined` when a live writer holds it. */
  async #claim(name: string): Promise<string | undefined> {
    let candidate = name;
    for (let released = 0; released < ATTEMPTS_ON_RELEASED_CLAIM; ) {
      try {
        await this.#collection.insertOne({ _id: candidate, claimedAt: new Date() });
        return candidate;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw translateDriverError(error);
      }
      const held = await guardDriverCall(() => this.#collection.findOne({ _id: candidate }));
      if (held === null) released += 1;
      else if (Date.now() - held.claimedAt.getTime() < CLAIM_LEASE_MS) return undefined;
      else candidate += '+';
    }
    return undefined;
  }
}
