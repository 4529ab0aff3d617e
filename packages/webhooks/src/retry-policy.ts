import { type DeliveryFailure } from '@workplan/core';

/** How long to wait between attempts at a change that failed. */
export interface Backoff {
  /** The ceiling of the first wait. */
  readonly firstMs: number;
  /** The ceiling no wait goes beyond, however many attempts failed. */
  readonly maxMs: number;
}

/** Waits of up to a second at first, doubling to at most five minutes. */
export const DEFAULT_BACKOFF: Backoff = { firstMs: 1000, maxMs: 300_000 };

/**
 * The wait after the `attempts`-th failed attempt in a row: exponential backoff with full
 * jitter, a random time from 0 to `firstMs * 2^(attempts - 1)` (capped at `maxMs`), so that
 * the subscriptions of a receiver that came back do not all retry at the same moment.
 */
export function retryDelayMs(attempts: number, backoff: Backoff = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.max(0, Math.min(attempts - 1, 52)));
  return Math.floor(random() * ceiling);
}

/**
 * The failure after an attempt at the change following the cursor failed with `cause` at
 * `now`: a new run of failures when there was none or the last run had been given up
 * (the subscription was resumed), else one more attempt of the same run; the run is given
 * up, and the subscription marked failing, once it has lasted `retryPeriodMs`.
 */
export function nextFailure(
  previous: DeliveryFailure | null,
  cause: string,
  now: Date,
  policy: RetryPolicy,
  random: () => number = Math.random,
): DeliveryFailure {
  const fresh = previous === null || previous.markedFailingAt !== null;
  const failingSince = fresh ? now : previous.failingSince;
  const attempts = fresh ? 1 : previous.attempts + 1;
  const givenUp = now.getTime() - failingSince.getTime() >= policy.retryPeriodMs;
  return {
    lastError: cause,
    failingSince,
    attempts,
    nextAttempt: givenUp ? null : new Date(now.getTime() + retryDelayMs(attempts, policy.backoff, random)),
    markedFailingAt: givenUp ? now : null,
  };
}

/** How a change that failed is retried. */
export interface RetryPolicy {
  readonly backoff: Backoff;
  /** How long a run of failures lasts before it is given up (at least 24 h). */
  readonly retryPeriodMs: number;
}
