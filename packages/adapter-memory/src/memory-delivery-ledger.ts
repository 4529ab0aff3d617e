import { type DeliveryFailure, type DeliveryLedger, type DeliveryState } from '@workplan/core';

/**
 * The progress of webhook subscriptions in this process's memory: for the memory storage,
 * whose changes end with the process too. Nothing is awaited inside an operation, so each
 * is atomic among the process's deliverers.
 */
export class MemoryDeliveryLedger implements DeliveryLedger {
  readonly #states = new Map<string, DeliveryState>();

  async claim(subscription: string, holder: string, now: Date, until: Date): Promise<DeliveryState | undefined> {
    const state = this.#states.get(subscription) ?? { subscription, cursor: 0, lease: null, failure: null };
    const { lease } = state;
    if (lease !== null && lease.holder !== holder && lease.expiresAt.getTime() > now.getTime()) return undefined;
    return snapshotOf(this.#keep({ ...state, lease: { holder, expiresAt: new Date(until.getTime()) } }));
  }

  async advance(subscription: string, holder: string, cursor: number): Promise<boolean> {
    const state = this.#heldBy(subscription, holder);
    if (state === undefined) return false;
    this.#keep({ ...state, cursor: Math.max(state.cursor, cursor), failure: null });
    return true;
  }

  async fail(subscription: string, holder: string, failure: DeliveryFailure): Promise<boolean> {
    const state = this.#heldBy(subscription, holder);
    if (state === undefined) return false;
    this.#keep({ ...state, failure: failureCopy(failure) });
    return true;
  }

  async release(subscription: string, holder: string): Promise<void> {
    const state = this.#heldBy(subscription, holder);
    if (state !== undefined) this.#keep({ ...state, lease: null });
  }

  async state(subscription: string): Promise<DeliveryState | undefined> {
    const state = this.#states.get(subscription);
    return state === undefined ? undefined : snapshotOf(state);
  }

  #heldBy(subscription: string, holder: string): DeliveryState | undefined {
    const state = this.#states.get(subscription);
    return state?.lease?.holder === holder ? state : undefined;
  }

  #keep(state: DeliveryState): DeliveryState {
    this.#states.set(state.subscription, state);
    return state;
  }
}

/** A copy of `state` whose dates are its own: a caller that changes them changes nothing kept. */
function snapshotOf(state: DeliveryState): DeliveryState {
  const { lease, failure } = state;
  return {
    ...state,
    lease: lease === null ? null : { holder: lease.holder, expiresAt: dateCopy(lease.expiresAt) },
    failure: failure === null ? null : failureCopy(failure),
  };
}

function failureCopy(failure: DeliveryFailure): DeliveryFailure {
  const orNull = (date: Date | null): Date | null => (date === null ? null : dateCopy(date));
  return {
    lastError: failure.lastError,
    failingSince: dateCopy(failure.failingSince),
    attempts: failure.attempts,
    nextAttempt: orNull(failure.nextAttempt),
    markedFailingAt: orNull(failure.markedFailingAt),
  };
}

function dateCopy(date: Date): Date {
  return new Date(date.getTime());
}
