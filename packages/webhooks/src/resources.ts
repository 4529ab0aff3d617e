/**
 * The resources a subscription may ask for, by the word the HTTP API calls them (a change's
 * `resource`), and the kind of record each is in the core (`Change.kind`).
 */
export const webhookResources = {
  scale: 'workSchedule',
  costCenter: 'costCenter',
} as const satisfies Readonly<Record<string, string>>;

/** A resource word: `scale` or `costCenter`. */
export type WebhookResource = keyof typeof webhookResources;

export const RESOURCE_WORDS = Object.keys(webhookResources) as readonly WebhookResource[];

/** The resource word of a change's kind; `undefined` for a kind no resource serves. */
export function resourceOfKind(kind: string): WebhookResource | undefined {
  return RESOURCE_WORDS.find((word) => webhookResources[word] === kind);
}
