import { type ChangeLog, type Clock, type DeliveryLedger } from '@workplan/core';
import { DEFAULT_BACKOFF, type RetryPolicy } from './retry-policy.js';
import { type FailureOutcome } from './post-change.js';
import { type ChangeWording } from './resources.js';

/** How long things take: the contract's figures by default, shorter in tests. */
export interface DeliveryTimings extends RetryPolicy {
  /** An attempt not answered within this is a failure (the contract: 10 s). */
  readonly attemptTimeoutMs: number;
  /**
   * How long a lease lasts unless renewed; renewed when a third of it has passed, before an
   * attempt. At least three times `attemptTimeoutMs`, so that an attempt begun just before a
   * renewal was due ends well within the lease.
   */
  readonly leaseMs: number;
  /** How many changes are read from the log at a time. */
  readonly batchSize: number;
}

export const DEFAULT_TIMINGS: DeliveryTimings = {
  attemptTimeoutMs: 10_000,
  retryPeriodMs: 24 * 60 * 60 * 1000,
  backoff: DEFAULT_BACKOFF,
  leaseMs: 30_000,
  batchSize: 100,
};

/**
 * The timings of a lease of `leaseMs`: an attempt is the contract's 10 s unless a third of
 * the lease is shorter, so that an attempt begun just before a renewal still ends within
 * the lease (else a second instance could start the same change while the first waits).
 */
export function leaseTimings(leaseMs: number): Pick<DeliveryTimings, 'leaseMs' | 'attemptTimeoutMs'> {
  return { leaseMs, attemptTimeoutMs: Math.min(DEFAULT_TIMINGS.attemptTimeoutMs, Math.floor(leaseMs / 3)) };
}

/** What happened, for logs and metrics: the deliverer itself writes neither. */
export type DeliveryEvent =
  | { readonly type: 'delivered'; readonly subscription: string; readonly changeId: string; readonly durationMs: number }
  | {
      readonly type: 'failed';
      readonly subscription: string;
      readonly changeId: string;
      readonly outcome: FailureOutcome;
      readonly cause: string;
      /** When it is tried again; `null` once the subscription is marked failing. */
      readonly nextAttempt: Date | null;
    }
  /** Changes removed by retention before they were delivered: passed over, from `after` to `resumedAfter`. */
  | { readonly type: 'expired'; readonly subscription: string; readonly after: number; readonly resumedAfter: number }
  /** The ledger or the change log failed; delivery waits and tries again. */
  | { readonly type: 'unavailable'; readonly subscription: string; readonly error: unknown };

/** What a deliverer works with. */
export interface DelivererOptions {
  readonly changes: ChangeLog;
  readonly ledger: DeliveryLedger;
  /** This instance, as the ledger's leases name it: unique among the instances sharing the storage. */
  readonly holder: string;
  readonly clock?: Clock;
  readonly timings?: Partial<DeliveryTimings>;
  /** The resources and the JSON of changes: the HTTP API's own, so a POSTed change reads as the feed writes it. */
  readonly wording: ChangeWording;
  readonly onEvent?: (event: DeliveryEvent) => void;
}
