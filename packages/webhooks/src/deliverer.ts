import { systemClock } from '@workplan/core';
import { DEFAULT_TIMINGS, type DelivererOptions } from './delivery-settings.js';
import { statusOf, type SubscriptionStatus } from './delivery-status.js';
import { SubscriptionDelivery, type DeliveryContext } from './subscription-delivery.js';
import { ledgerNameOf, type Subscription } from './subscriptions.js';

/**
 * Delivers the change log to every subscription, each on its own (a slow receiver holds up
 * only its own subscription), in the background: nothing here runs on a request's path.
 */
export class WebhookDeliverer {
  readonly #context: DeliveryContext;
  readonly #deliveries = new Map<string, SubscriptionDelivery>();
  #subscriptions: readonly Subscription[] = [];
  /** The last change of subscriptions asked for: each waits for the one before (two SIGHUPs in a row). */
  #changing: Promise<void> = Promise.resolve();

  constructor(options: DelivererOptions) {
    this.#context = {
      changes: options.changes,
      ledger: options.ledger,
      holder: options.holder,
      clock: options.clock ?? systemClock,
      timings: { ...DEFAULT_TIMINGS, ...options.timings },
      wording: options.wording,
      emit: options.onEvent ?? (() => undefined),
    };
  }

  /** The subscriptions delivered to, as last given. */
  get subscriptions(): readonly Subscription[] {
    return this.#subscriptions;
  }

  /**
   * Delivers to `subscriptions` from now on: a new one starts, one no longer given stops, a
   * changed one starts again with its new address, secret or resources (at its cursor), and
   * one marked failing is tried again. `graceMs` bounds the wait for the attempts in flight
   * of those that stop (by default, as long as an attempt may take).
   */
  deliverTo(subscriptions: readonly Subscription[], graceMs = this.#context.timings.attemptTimeoutMs): Promise<void> {
    const changed = this.#changing.then(() => this.#change(subscriptions, graceMs));
    // The caller is told of a failure; the next change does not inherit it.
    this.#changing = changed.catch(() => undefined);
    return changed;
  }

  async #change(subscriptions: readonly Subscription[], graceMs: number): Promise<void> {
    const wanted = new Map(subscriptions.map((subscription) => [ledgerNameOf(subscription.name), subscription]));
    const stopping: Promise<void>[] = [];
    for (const [name, delivery] of this.#deliveries) {
      const next = wanted.get(name);
      if (next !== undefined && sameSubscription(next, delivery.subscription)) continue;
      this.#deliveries.delete(name);
      stopping.push(delivery.stop(graceMs));
    }
    await Promise.all(stopping);
    for (const subscription of subscriptions) {
      const running = this.#deliveries.get(ledgerNameOf(subscription.name));
      if (running === undefined) this.#deliveries.set(ledgerNameOf(subscription.name), new SubscriptionDelivery(subscription, this.#context));
      else running.resume();
    }
    this.#subscriptions = subscriptions;
  }

  /** Stops every delivery, letting attempts in flight end for up to `graceMs`, and gives up the leases. */
  async stop(graceMs = 0): Promise<void> {
    await this.deliverTo([], graceMs);
  }

  /** Where each subscription stands, in the order given. */
  status(): Promise<SubscriptionStatus[]> {
    const { ledger, changes, clock } = this.#context;
    const now = clock.now();
    return Promise.all(this.#subscriptions.map((subscription) => statusOf(subscription, ledger, changes, now)));
  }
}

function sameSubscription(a: Subscription, b: Subscription): boolean {
  return a.name === b.name && a.url === b.url && a.secret === b.secret && a.resources.join() === b.resources.join();
}
