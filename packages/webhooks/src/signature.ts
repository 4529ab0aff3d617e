import { createHmac } from 'node:crypto';

/** The prefix of a secret as the Standard Webhooks specification writes it, before its base64. */
export const SECRET_PREFIX = 'whsec_';

/** The headers that sign one delivery. */
export interface SignatureHeaders {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

/**
 * Signs `body` as the Standard Webhooks specification says: HMAC-SHA256, keyed with the
 * bytes the secret's base64 stands for, of `id.timestamp.body` (the timestamp in whole
 * seconds), written `v1,<base64>`. Each attempt is signed anew, so a retry a day later
 * still falls within a receiver's tolerance of the timestamp.
 */
export function signatureHeaders(secret: string, id: string, at: Date, body: string): SignatureHeaders {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
