import { changeIdOf, sequenceOf, type ChangeLog, type DeliveryLedger } from '@workplan/core';
import { latestSequence, oldestAfter } from './feed-edges.js';
import { ledgerNameOf, type Subscription } from './subscriptions.js';

/** Where a subscription stands, as the operator sees it (never its secret; what a reader without the write role may see of the URL is the caller's to cut). */
export interface SubscriptionStatus {
  readonly name: string;
  /** Its URL, whole, as the file gives it. */
  readonly url: string;
  readonly resources: readonly string[];
  /** The id of the last change acknowledged or passed over; `"0"` before the first. */
  readonly cursor: string;
  /** How many changes kept follow the cursor (of every resource; those it does not want are passed over at once). */
  readonly lagChanges: number;
  /** How long ago the oldest change after the cursor was made; 0 when none follows it. */
  readonly lagSeconds: number;
  readonly lastError: string | null;
  readonly failingSince: Date | null;
  readonly nextAttempt: Date | null;
  /** Retries were given up: nothing is sent until a reload (SIGHUP) or a restart. */
  readonly failing: boolean;
}

/** The status of `subscription` from the ledger and the change log, at `now`. */
export async function statusOf(subscription: Subscription, ledger: DeliveryLedger, log: ChangeLog, now: Date): Promise<SubscriptionStatus> {
  const state = await ledger.state(ledgerNameOf(subscription.name));
  const cursor = state?.cursor ?? 0;
  const oldest = await oldestAfter(log, cursor);
  const first = oldest === undefined ? undefined : sequenceOf(oldest.id);
  // Changes are numbered without gaps, so those pending are counted by their first and last numbers.
  const lagChanges = first === undefined ? 0 : (await latestSequence(log, first)) - first + 1;
  const failure = state?.failure ?? null;
  return {
    name: subscription.name,
    url: subscription.url,
    resources: subscription.resources,
    cursor: changeIdOf(cursor),
    lagChanges,
    lagSeconds: oldest === undefined ? 0 : Math.max(0, (now.getTime() - oldest.at.getTime()) / 1000),
    lastError: failure?.lastError ?? null,
    failingSince: failure?.failingSince ?? null,
    nextAttempt: failure?.nextAttempt ?? null,
    failing: failure !== null && failure.markedFailingAt !== null,
  };
}
