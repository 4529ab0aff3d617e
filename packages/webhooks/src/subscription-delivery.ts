import { type Agent } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { sequenceOf, WorkplanError, type Change, type ChangeLog, type Clock, type DeliveryLedger, type DeliveryState } from '@workplan/core';
import { type DeliveryEvent, type DeliveryTimings } from './delivery-settings.js';
import { firstReadable } from './feed-edges.js';
import { connectionFor, postChange } from './post-change.js';
import { type ChangeWording } from './resources.js';
import { nextFailure } from './retry-policy.js';
import { signatureHeaders } from './signature.js';
import { ledgerNameOf, type Subscription } from './subscriptions.js';

/** What every subscription's delivery shares. */
export interface DeliveryContext {
  readonly changes: ChangeLog;
  readonly ledger: DeliveryLedger;
  readonly holder: string;
  readonly clock: Clock;
  readonly timings: DeliveryTimings;
  readonly wording: ChangeWording;
  readonly emit: (event: DeliveryEvent) => void;
}

/**
 * The delivery of one subscription, running from its construction until `stop`: while this
 * instance holds the subscription's lease, each change after the cursor, in commit order,
 * one POST at a time (so one connection at most), the cursor moved on only once it was
 * acknowledged or is not wanted; a failure is retried after a backoff until the retry
 * period ends, then the subscription is marked failing and waits for a `resume`.
 */
export class SubscriptionDelivery {
  readonly subscription: Subscription;
  /** What the ledger keeps it under. */
  readonly #ledgerName: string;
  readonly #context: DeliveryContext;
  /** The one connection its POSTs take turns on. */
  readonly #connection: Agent;
  /** A subscription marked failing before this moment is tried again: its start, or the last reload. */
  #resumedAt: Date;
  /** No attempt starts once it aborts, and every wait ends. */
  readonly #stopping = new AbortController();
  /** Cuts the attempt in flight short: a stop's grace has run out. */
  readonly #cut = new AbortController();
  /** Ends the current wait, to look at the state again: a resume, or the stop. */
  #wake = new AbortController();
  readonly #running: Promise<void>;

  constructor(subscription: Subscription, context: DeliveryContext) {
    this.subscription = subscription;
    this.#ledgerName = ledgerNameOf(subscription.name);
    this.#context = context;
    this.#connection = connectionFor(subscription.url);
    this.#resumedAt = context.clock.now();
    this.#running = this.#run();
  }

  /** Tries again now if the subscription was marked failing (a reload). */
  resume(): void {
    this.#resumedAt = this.#context.clock.now();
    this.#wake.abort();
  }

  /** Starts no more attempts, lets the one in flight end for up to `graceMs`, and gives the lease up. */
  async stop(graceMs: number): Promise<void> {
    this.#stopping.abort();
    this.#wake.abort();
    const cut = setTimeout(() => {
      this.#cut.abort();
    }, graceMs);
    await this.#running;
    clearTimeout(cut);
    this.#connection.destroy();
  }

  get #stopped(): boolean {
    return this.#stopping.signal.aborted;
  }

  get #renewEveryMs(): number {
    return this.#context.timings.leaseMs / 3;
  }

  async #run(): Promise<void> {
    const { ledger, holder } = this.#context;
    const name = this.subscription.name;
    let adopted = false;
    while (!this.#stopped) {
      try {
        let state = await this.#claim();
        if (state !== undefined && !adopted) {
          state = await this.#adoptPlaceAsWritten(state);
          adopted = state !== undefined;
        }
        if (state === undefined) await this.#pause(this.#renewEveryMs);
        else await this.#deliverWhileHeld(state);
      } catch (error) {
        this.#context.emit({ type: 'unavailable', subscription: name, error });
        await this.#pause(this.#renewEveryMs);
      }
    }
    await ledger.release(this.#ledgerName, holder).catch((error: unknown) => {
      // The lease then runs out by itself, and another instance takes over a little later.
      this.#context.emit({ type: 'unavailable', subscription: name, error });
    });
  }

  /**
   * Goes on from the place a build that kept the ledger under the name as written left
   * there, when it is further on: without it, every subscription named with a capital
   * would start again from the oldest change. Resolves the state after it.
   */
  async #adoptPlaceAsWritten(claimed: DeliveryState): Promise<DeliveryState | undefined> {
    const { name } = this.subscription;
    if (name === this.#ledgerName) return claimed;
    const { ledger, holder } = this.#context;
    const cursor = (await ledger.state(name))?.cursor ?? 0;
    if (cursor <= claimed.cursor) return claimed;
    return (await ledger.advance(this.#ledgerName, holder, cursor)) ? this.#claim() : undefined;
  }

  #claim(): Promise<DeliveryState | undefined> {
    const now = this.#context.clock.now();
    return this.#context.ledger.claim(this.#ledgerName, this.#context.holder, now, new Date(now.getTime() + this.#context.timings.leaseMs));
  }

  /** Delivers until the lease is lost or the delivery stops, renewing the lease as it goes. */
  async #deliverWhileHeld(claimed: DeliveryState): Promise<void> {
    let state: DeliveryState | undefined = claimed;
    let renewDue = this.#now() + this.#renewEveryMs;
    while (state !== undefined && !this.#stopped) {
      if (this.#now() >= renewDue) {
        state = await this.#claim();
        renewDue = this.#now() + this.#renewEveryMs;
        continue;
      }
      const heldBackUntil = this.#heldBackUntil(state);
      if (heldBackUntil > this.#now()) await this.#pause(Math.min(heldBackUntil, renewDue) - this.#now());
      else state = await this.#deliverNext(state, renewDue);
    }
  }

  /** Until when a failure holds the next attempt back: its next attempt, or for ever once marked failing and not resumed since. */
  #heldBackUntil({ failure }: DeliveryState): number {
    if (failure === null) return 0;
    if (failure.markedFailingAt !== null) return failure.markedFailingAt.getTime() >= this.#resumedAt.getTime() ? Number.POSITIVE_INFINITY : 0;
    return failure.nextAttempt?.getTime() ?? 0;
  }

  /**
   * Delivers the changes after the cursor, from one read, until one fails or the lease is
   * due for renewal; waits for a change when there is none. Resolves the state after it,
   * `undefined` once the lease is lost.
   */
  async #deliverNext(state: DeliveryState, renewDue: number): Promise<DeliveryState | undefined> {
    const { changes: log, timings } = this.#context;
    let changes: Change[];
    try {
      changes = await log.read(state.cursor, timings.batchSize);
    } catch (error) {
      if (WorkplanError.is(error) && error.kind === 'cursorExpired') return this.#passExpired(state);
      throw error;
    }
    if (changes.length === 0) {
      await log.waitAfter(state.cursor, Math.max(0, renewDue - this.#now()), { signal: this.#waitSignal() });
      return state;
    }
    let current = state;
    let passedOver = state.cursor;
    for (const change of changes) {
      if (this.#stopped || this.#now() >= renewDue) break;
      const sequence = sequenceOf(change.id);
      if (!this.#wants(change)) {
        passedOver = sequence;
        continue;
      }
      const started = this.#now();
      const attempt = await this.#attempt(change);
      if (!attempt.acknowledged) {
        if (attempt.outcome === 'stopped') break;
        const moved = await this.#advance(current, passedOver);
        if (moved === undefined) return undefined;
        const failure = nextFailure(moved.failure, attempt.cause, this.#context.clock.now(), timings);
        if (!(await this.#context.ledger.fail(this.#ledgerName, this.#context.holder, failure))) return undefined;
        this.#context.emit({
          type: 'failed',
          subscription: this.subscription.name,
          changeId: change.id,
          outcome: attempt.outcome,
          cause: attempt.cause,
          nextAttempt: failure.nextAttempt,
        });
        return { ...moved, failure };
      }
      const moved = await this.#advance(current, sequence);
      if (moved === undefined) return undefined;
      current = moved;
      passedOver = sequence;
      this.#context.emit({ type: 'delivered', subscription: this.subscription.name, changeId: change.id, durationMs: this.#now() - started });
    }
    return this.#advance(current, passedOver);
  }

  /** Moves the cursor to `cursor` if that is forward; `undefined` once the lease is lost. */
  async #advance(state: DeliveryState, cursor: number): Promise<DeliveryState | undefined> {
    if (cursor <= state.cursor) return state;
    const held = await this.#context.ledger.advance(this.#ledgerName, this.#context.holder, cursor);
    return held ? { ...state, cursor, failure: null } : undefined;
  }

  /** Passes over the changes retention removed before they were delivered, with a warning. */
  async #passExpired(state: DeliveryState): Promise<DeliveryState | undefined> {
    const resumedAfter = await firstReadable(this.#context.changes, state.cursor);
    this.#context.emit({ type: 'expired', subscription: this.subscription.name, after: state.cursor, resumedAfter });
    return this.#advance(state, resumedAfter);
  }

  #wants(change: Change): boolean {
    const resource = this.#context.wording.resourceOf(change.kind);
    return resource !== undefined && this.subscription.resources.includes(resource);
  }

  #attempt(change: Change): ReturnType<typeof postChange> {
    const { url, secret } = this.subscription;
    const body = this.#context.wording.bodyOf(change);
    const headers = signatureHeaders(secret, change.id, this.#context.clock.now(), body);
    const { attemptTimeoutMs } = this.#context.timings;
    return postChange({ url, body, headers: { ...headers }, timeoutMs: attemptTimeoutMs, agent: this.#connection, signal: this.#cut.signal });
  }

  /** Waits `ms`, or less if the delivery stops or is woken. */
  async #pause(ms: number): Promise<void> {
    // A wait that was called off has simply ended early; the caller looks at the state again.
    await sleep(Math.max(0, ms), undefined, { signal: this.#waitSignal() }).catch(() => undefined);
  }

  /**
   * What ends a wait: a wake (a resume or the stop). One that came since the last wait ends
   * the next at once, and is then used up, unless the delivery stops.
   */
  #waitSignal(): AbortSignal {
    const { signal } = this.#wake;
    if (signal.aborted && !this.#stopped) this.#wake = new AbortController();
    return signal;
  }

  #now(): number {
    return this.#context.clock.now().getTime();
  }
}
