import { type DeliveryEvent, type SubscriptionStatus } from '@workplan/webhooks';
import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * Webhook deliveries by subscription and outcome, and where each subscription stands (its
 * lag, and whether and for how long it is failing), on the service's registry.
 */
export class WebhookMetrics {
  // Subscriptions are the operator's, few and named in the file, so they make few series.
  readonly #deliveries: Counter<'subscription' | 'outcome'>;

  constructor(registry: Registry, status: () => Promise<SubscriptionStatus[]>) {
    this.#deliveries = new Counter({
      name: 'workplan_webhook_deliveries_total',
      help: 'Attempts to deliver a change, by subscription and outcome (acknowledged, status, redirect, timeout, connection)',
      labelNames: ['subscription', 'outcome'] as const,
      registers: [registry],
    });
    const statuses = oneReadAtATime(async () => {
      // A storage that does not answer leaves them unknown, not /metrics failing: its 503s are counted apart.
      return status().catch((): SubscriptionStatus[] => []);
    });
    const standing = (name: string, help: string, of: (subscription: SubscriptionStatus) => number): void => {
      new Gauge({
        name,
        help,
        labelNames: ['subscription'] as const,
        registers: [registry],
        async collect() {
          const read = await statuses();
          this.reset();
          for (const subscription of read) this.set({ subscription: subscription.name }, of(subscription));
        },
      });
    };
    standing('workplan_webhook_lag_changes', 'Changes not yet delivered (or passed over), by subscription', (s) => s.lagChanges);
    standing('workplan_webhook_lag_seconds', 'Age of the oldest change not yet delivered, by subscription', (s) => s.lagSeconds);
    standing(
      'workplan_webhook_failing',
      '1 when the subscription is marked failing (retries given up: nothing is sent until SIGHUP or a restart), else 0',
      (s) => (s.failing ? 1 : 0),
    );
    standing(
      'workplan_webhook_failing_seconds',
      'How long the attempts of the subscription have failed without an acknowledgement, in seconds; 0 while it delivers',
      (s) => (s.failingSince === null ? 0 : Math.max(0, (Date.now() - s.failingSince.getTime()) / 1000)),
    );
  }

  /** Counts an attempt's outcome. */
  observe(event: DeliveryEvent): void {
    if (event.type === 'delivered') this.#deliveries.inc({ subscription: event.subscription, outcome: 'acknowledged' });
    else if (event.type === 'failed') this.#deliveries.inc({ subscription: event.subscription, outcome: event.outcome });
  }
}

/** `read`, shared by the callers that ask while it runs: the gauges of one scrape read the statuses once. */
function oneReadAtATime<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= read().finally(() => {
      running = undefined;
    });
    return running;
  };
}
