import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { describedChanges, webhooksDescription, type ApiRead } from '@workplan/adapter-express';
import { leaseTimings, readSubscriptionsFile, urlWithoutSecrets, WebhookDeliverer, type Subscription, type SubscriptionStatus } from '@workplan/webhooks';
import { type Kinds } from '@workplan/core';
import { ContainerModule } from 'inversify';
import { type Config } from './config.js';
import { ids } from './identifiers.js';
import { logDeliveryEvent } from './webhook-log.js';
import { WebhookMetrics } from './webhook-metrics.js';

/** The subscriptions of WEBHOOKS_FILE, each asking for some of the resource words of `kinds`; none when it is unset. */
export async function configuredSubscriptions(config: Config, kinds: Kinds): Promise<Subscription[]> {
  return config.webhooksFile === undefined ? [] : readSubscriptionsFile(config.webhooksFile, describedChanges(kinds).resources);
}

/** The deliverer of WEBHOOKS_FILE's subscriptions, over the storage's change log and delivery ledger; started and stopped with the service. */
export const webhooksModule = new ContainerModule(({ bind }) => {
  bind(ids.webhooks).toResolvedValue(
    (config, kinds, changes, logger, metrics, ledger) => {
      if (config.webhooksFile === undefined) return null;
      const counted = metrics === null ? undefined : new WebhookMetrics(metrics.registry, () => deliverer.status());
      const deliverer: WebhookDeliverer = new WebhookDeliverer({
        changes,
        ledger,
        holder: instanceName(),
        // The API's resource words and change JSON, so a POSTed change reads exactly as the changes feed writes it.
        wording: describedChanges(kinds),
        timings: leaseTimings(config.webhooksLeaseMs),
        onEvent: (event) => {
          logDeliveryEvent(logger, event);
          counted?.observe(event);
        },
      });
      return deliverer;
    },
    [ids.config, ids.kinds, ids.changes, ids.logger, ids.metrics, ids.deliveryLedger],
  );
});

/**
 * `GET /api/v1/webhooks`: where each subscription stands; none without WEBHOOKS_FILE. A
 * `read` key sees each URL without its user-info, query and fragment, where a receiver's
 * token often rides; a `write` key, trusted with the file's secrets, sees it whole.
 */
export function webhooksRead(webhooks: WebhookDeliverer | null): ApiRead {
  const { path, message } = webhooksDescription;
  const read: ApiRead['read'] = async ({ key }) => {
    const status = webhooks === null ? [] : await webhooks.status();
    return key.role === 'write' ? status : status.map(withoutSecrets);
  };
  return { path: `/${path}`, message, read };
}

function withoutSecrets(status: SubscriptionStatus): SubscriptionStatus {
  return { ...status, url: urlWithoutSecrets(status.url) };
}

/** This process among the instances sharing the storage, as the leases name it: readable in the ledger, and unique. */
function instanceName(): string {
  return `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
}
