/** Which instance delivers a subscription's changes, and until when unless it renews. */
export interface DeliveryLease {
  readonly holder: string;
  readonly expiresAt: Date;
}

/** Why a subscription is not moving: the change at its cursor has not been acknowledged yet. */
export interface DeliveryFailure {
  /** What the last attempt met, in a line (a status, a timeout, a refused connection). */
  readonly lastError: string;
  /** The first failed attempt since the subscription last made progress. */
  readonly failingSince: Date;
  /** How many attempts have failed since then. */
  readonly attempts: number;
  /** When the next attempt is due; `null` once the subscription is marked failing. */
  readonly nextAttempt: Date | null;
  /** When the retries were given up and the subscription marked failing; `null` while retrying. */
  readonly markedFailingAt: Date | null;
}

/** Where one subscription's delivery stands. */
export interface DeliveryState {
  readonly subscription: string;
  /** The sequence of the last change acknowledged (or passed over); 0 before the first. */
  readonly cursor: number;
  readonly lease: DeliveryLease | null;
  readonly failure: DeliveryFailure | null;
}

/**
 * Where the progress of each webhook subscription is kept, shared by every instance of the
 * service so that a restart resumes where delivery stopped and one instance at a time
 * delivers a subscription. A subscription is known by its name; its entry is made by the
 * first `claim`, with cursor 0 and no failure.
 *
 * Every operation is one atomic step against the storage, as two instances may race on it:
 * `claim` is a compare-and-set on the lease (of any number of concurrent claims of a free
 * or expired lease exactly one succeeds), and `advance`, `fail` and `release` write only
 * while `holder` still holds the lease, checking and writing in the same step, so an
 * instance that lost its lease (it stalled and another took over) can no longer move the
 * cursor. A holder holds the lease from its claim until another holder's claim or its own
 * release, expired or not: these three take no time, and an expired lease nobody took over
 * harms nobody. Times are kept to the millisecond.
 */
export interface DeliveryLedger {
  /**
   * Takes the lease until `until` when it is free, expired (`expiresAt <= now`) or held by
   * `holder` already (a renewal); resolves the state under it, or `undefined` while
   * another holder's lease runs.
   */
  claim(subscription: string, holder: string, now: Date, until: Date): Promise<DeliveryState | undefined>;
  /**
   * Moves the cursor forward to `cursor` (never back) and clears the failure: the changes up
   * to it are done with. Resolves `false`, writing nothing, when `holder` no longer holds the lease.
   */
  advance(subscription: string, holder: string, cursor: number): Promise<boolean>;
  /** Records the failure of the change after the cursor; `false`, writing nothing, when `holder` no longer holds the lease. */
  fail(subscription: string, holder: string, failure: DeliveryFailure): Promise<boolean>;
  /** Gives the lease up, if `holder` holds it, so another instance may take over without waiting for it to run out. */
  release(subscription: string, holder: string): Promise<void>;
  /** The state of `subscription`; `undefined` before its first claim. */
  state(subscription: string): Promise<DeliveryState | undefined>;
}
