import { type DeliveryEvent, type SubscriptionStatus } from '@workplan/webhooks';
import { Counter, Gauge, type Registry } from 'prom-client';

/** Webhook deliveries by subscription and outcome, and each subscription's lag, on the service's registry. */
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
    const lagGauge = (name: string, help: string, of: (subscription: SubscriptionStatus) => number): void => {
      new Gauge({
        name,
        help,
        labelNames: ['subscription'] as const,
        registers: [registry],
        async collect() {
          this.reset();
          // A storage that does not answer leaves the lag unknown, not /metrics failing: its 503s are counted apart.
          const statuses = await status().catch(() => []);
          for (const subscription of statuses) this.set({ subscription: subscription.name }, of(subscription));
        },
      });
    };
    lagGauge('workplan_webhook_lag_changes', 'Changes not yet delivered (or passed over), by subscription', (s) => s.lagChanges);
    lagGauge('workplan_webhook_lag_seconds', 'Age of the oldest change not yet delivered, by subscription', (s) => s.lagSeconds);
  }

  /** Counts an attempt's outcome. */
  observe(event: DeliveryEvent): void {
    if (event.type === 'delivered') this.#deliveries.inc({ subscription: event.subscription, outcome: 'acknowledged' });
    else if (event.type === 'failed') this.#deliveries.inc({ subscription: event.subscription, outcome: event.outcome });
  }
}
