import { type DeliveryEvent } from '@workplan/webhooks';
import { type Logger } from 'pino';

/** One line per failure, naming the subscription and the cause; one per retention skip; nothing per delivery. */
export function logDeliveryEvent(logger: Logger, event: DeliveryEvent): void {
  const subscription = event.subscription;
  switch (event.type) {
    case 'delivered':
      return;
    case 'failed': {
      const { changeId, outcome, cause, nextAttempt } = event;
      if (nextAttempt === null) {
        logger.error(
          { subscription, changeId, outcome },
          `webhook ${subscription}: change ${changeId} not delivered (${cause}); retried for the whole retry period, now marked failing: SIGHUP or a restart resumes it`,
        );
      } else {
        logger.warn(
          { subscription, changeId, outcome, nextAttempt },
          `webhook ${subscription}: change ${changeId} not delivered (${cause}); next attempt at ${nextAttempt.toISOString()}`,
        );
      }
      return;
    }
    case 'expired':
      logger.warn(
        { subscription, after: event.after, resumedAfter: event.resumedAfter },
        `webhook ${subscription}: changes ${event.after + 1} to ${event.resumedAfter} were removed by retention before they were delivered; passed over`,
      );
      return;
    case 'unavailable':
      logger.error({ subscription, err: event.error }, `webhook ${subscription}: the storage failed; delivery waits and tries again`);
      return;
  }
}
