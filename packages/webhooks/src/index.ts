/** @workplan/webhooks: each change POSTed to the operator's subscribers, in commit order, signed as Standard Webhooks says. */
export { WebhookDeliverer } from './deliverer.js';
export { DEFAULT_TIMINGS, leaseTimings, type DelivererOptions, type DeliveryEvent, type DeliveryTimings } from './delivery-settings.js';
export { type SubscriptionStatus } from './delivery-status.js';
export { type FailureOutcome } from './post-change.js';
export { type ChangeWording } from './resources.js';
export { DEFAULT_BACKOFF, retryDelayMs, type Backoff } from './retry-policy.js';
export { signatureHeaders, type SignatureHeaders } from './signature.js';
export { parseSubscriptions, readSubscriptionsFile, SubscriptionsError, urlWithoutSecrets, type Subscription } from './subscriptions.js';
