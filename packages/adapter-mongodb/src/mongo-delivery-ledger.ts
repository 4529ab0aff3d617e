import { type DeliveryFailure, type DeliveryLedger, type DeliveryState } from '@workplan/core';
import { type Collection, type IndexDescription } from 'mongodb';
import { guardDriverCall, isDuplicateKeyError, translateDriverError } from './driver-errors.js';
import { abortableBy, withinBackgroundLimit, withinTimeLimit } from './time-limit.js';

/** One version of one subscription's state, under `subscription@version`; the highest version stands. */
export interface DeliveryStateDocument {
  _id: string;
  subscription: string;
  version: number;
  cursor: number;
  lease: { holder: string; expiresAt: Date } | null;
  failure: DeliveryFailure | null;
  /** When it was written, by its writer's clock: how old the version it superseded is. */
  writtenAt: Date;
}

export interface MongoDeliveryLedgerOptions {
  readonly collection: Collection<DeliveryStateDocument>;
  /** The longest one call may take, all its round trips together. */
  readonly timeoutMS: number;
  /** How long after it was sent a write may still land (a stalled server wakes). */
  readonly leaseMs: number;
}

const STATE_INDEXES: IndexDescription[] = [{ key: { subscription: 1, version: -1 }, name: 'subscription_version' }];

/** What a write makes of the state that stands; `undefined` to write nothing. */
type Transition = (state: DeliveryState) => DeliveryState | undefined;

/**
 * The webhook subscriptions' progress in MongoDB, on any server speaking its protocol.
 * FerretDB 1.x applies a filtered update by reading, then writing by `_id` (FerretDB#2168),
 * so a compare-and-set cannot be a filter. Each write instead inserts the next version of
 * the subscription's whole state (lease, cursor, failure) under `subscription@version`,
 * computed from the version it read: `_id` is unique on every server, so of the writers
 * that read one version exactly one writes the next, and the others read again. Versions
 * superseded long enough ago that no write based on them can still land are removed (docs/storage.md).
 */
export class MongoDeliveryLedger implements DeliveryLedger {
  readonly #collection: Collection<DeliveryStateDocument>;
  readonly #timeoutMS: number;
  readonly #retireAfterMs: number;
  /** When this process last removed old versions of each subscription. */
  readonly #lastRetired = new Map<string, number>();
  /** The version of each subscription this process last wrote, and when it sent that write (it stood then, unless it took the number). */
  readonly #seen = new Map<string, { document: DeliveryStateDocument; seenAt: number }>();

  constructor(options: MongoDeliveryLedgerOptions) {
    this.#collection = options.collection;
    this.#timeoutMS = options.timeoutMS;
    // A writer reads a version and sends the next within one call; that insert may land up
    // to a lease after it was sent. A version's number is free again only once it is
    // removed, so one is removed only when its successor is older than both together.
    this.#retireAfterMs = options.leaseMs + options.timeoutMS;
  }

  async ensureIndexes(): Promise<void> {
    await withinBackgroundLimit(this.#timeoutMS, undefined, (signal) =>
      guardDriverCall(() => this.#collection.createIndexes(STATE_INDEXES, abortableBy(signal, {}))),
    );
  }

  claim(subscription: string, holder: string, now: Date, until: Date): Promise<DeliveryState | undefined> {
    return this.#write(subscription, (state) => {
      const { lease } = state;
      if (lease !== null && lease.holder !== holder && lease.expiresAt.getTime() > now.getTime()) return undefined;
      return { ...state, lease: { holder, expiresAt: until } };
    });
  }

  async advance(subscription: string, holder: string, cursor: number): Promise<boolean> {
    const written = await this.#write(subscription, (state) =>
      state.lease?.holder === holder ? { ...state, cursor: Math.max(state.cursor, cursor), failure: null } : undefined,
    );
    return written !== undefined;
  }

  async fail(subscription: string, holder: string, failure: DeliveryFailure): Promise<boolean> {
    const written = await this.#write(subscription, (state) => (state.lease?.holder === holder ? { ...state, failure } : undefined));
    return written !== undefined;
  }

  async release(subscription: string, holder: string): Promise<void> {
    await this.#write(subscription, (state) => (state.lease?.holder === holder ? { ...state, lease: null } : undefined));
  }

  state(subscription: string): Promise<DeliveryState | undefined> {
    return withinTimeLimit(this.#timeoutMS, undefined, async (signal) => {
      const latest = await this.#latest(subscription, signal);
      return latest === undefined ? undefined : stateOf(latest);
    });
  }

  /**
   * Writes what `transition` makes of the state that stands as its next version, reading
   * again when another writer wrote that version first; resolves the state written, or
   * `undefined` when `transition` wrote nothing. The version this process last saw stand is
   * tried first, unread (a holder advancing its cursor writes in one round trip): an insert
   * that takes the next number shows it still stood. Only a write is decided from it; a
   * refusal is decided from the version read.
   */
  #write(subscription: string, transition: Transition): Promise<DeliveryState | undefined> {
    return withinTimeLimit(this.#timeoutMS, undefined, async (signal) => {
      let latest = this.#recentlySeen(subscription);
      for (let fresh = latest === undefined; ; fresh = true) {
        const seenAt = Date.now();
        if (fresh) latest = await this.#latest(subscription, signal);
        const next = transition(latest === undefined ? { subscription, cursor: 0, lease: null, failure: null } : stateOf(latest));
        if (next === undefined) {
          if (fresh) return undefined;
          continue;
        }
        const written = documentOf(next, (latest?.version ?? 0) + 1, new Date());
        try {
          await this.#collection.insertOne(written, abortableBy(signal, {}));
        } catch (error) {
          if (isDuplicateKeyError(error)) continue;
          throw translateDriverError(error);
        }
        this.#seen.set(subscription, { document: written, seenAt });
        await this.#retireOld(subscription, written.writtenAt, signal);
        return stateOf(written);
      }
    });
  }

  /**
   * The version this process last saw stand, if that was recently enough that a write
   * based on it lands before the version after it could be removed (its removal waits for
   * a lease and a call's time after the next version was written; this write's lands
   * within a lease of being sent).
   */
  #recentlySeen(subscription: string): DeliveryStateDocument | undefined {
    const seen = this.#seen.get(subscription);
    return seen !== undefined && Date.now() - seen.seenAt < this.#timeoutMS ? seen.document : undefined;
  }

  async #latest(subscription: string, signal: AbortSignal): Promise<DeliveryStateDocument | undefined> {
    const [latest] = await guardDriverCall(() =>
      this.#collection.find({ subscription }, { signal }).sort({ version: -1 }).limit(1).toArray(),
    );
    return latest;
  }

  /**
   * Removes, once a retirement period per subscription, the versions superseded by one
   * written before that period: no write based on them can still land, so none takes their
   * number again. A removal that fails is left to the next.
   */
  async #retireOld(subscription: string, now: Date, signal: AbortSignal): Promise<void> {
    const cutoff = now.getTime() - this.#retireAfterMs;
    if ((this.#lastRetired.get(subscription) ?? 0) > cutoff) return;
    this.#lastRetired.set(subscription, now.getTime());
    try {
      const [settled] = await this.#collection
        .find({ subscription, writtenAt: { $lt: new Date(cutoff) } }, { signal, projection: { version: 1 } })
        .sort({ version: -1 })
        .limit(1)
        .toArray();
      if (settled !== undefined) await this.#collection.deleteMany({ subscription, version: { $lt: settled.version } }, abortableBy(signal, {}));
    } catch {
      // Old versions only take room; the next retirement removes them.
    }
  }
}

function documentOf(state: DeliveryState, version: number, writtenAt: Date): DeliveryStateDocument {
  return {
    _id: `${state.subscription}@${String(version)}`,
    subscription: state.subscription,
    version,
    cursor: state.cursor,
    lease: state.lease === null ? null : { holder: state.lease.holder, expiresAt: new Date(state.lease.expiresAt.getTime()) },
    failure: state.failure === null ? null : failureCopy(state.failure),
    writtenAt,
  };
}

/** The state a version keeps, with dates of its own. */
function stateOf(document: DeliveryStateDocument): DeliveryState {
  const { subscription, cursor, lease, failure } = document;
  return {
    subscription,
    cursor,
    lease: lease === null ? null : { holder: lease.holder, expiresAt: new Date(lease.expiresAt.getTime()) },
    failure: failure === null ? null : failureCopy(failure),
  };
}

function failureCopy(failure: DeliveryFailure): DeliveryFailure {
  const orNull = (date: Date | null): Date | null => (date === null ? null : new Date(date.getTime()));
  return {
    lastError: failure.lastError,
    failingSince: new Date(failure.failingSince.getTime()),
    attempts: failure.attempts,
    nextAttempt: orNull(failure.nextAttempt),
    markedFailingAt: orNull(failure.markedFailingAt),
  };
}
