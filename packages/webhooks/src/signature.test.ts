import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signatureHeaders } from './signature.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({ id: '42', resource: 'scale', recordId: 'r1', action: 'create', texto: 'Manutenção' });

describe('signatures', () => {
  it('are verified by the Standard Webhooks reference library, as a receiver would', () => {
    const headers = signatureHeaders(secret, '42', new Date(), body);
    expect(headers['webhook-id']).toBe('42');
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('sign the timestamp in whole seconds', () => {
    const headers = signatureHeaders(secret, '7', new Date('2026-11-25T10:00:05.999Z'), body);
    expect(headers['webhook-timestamp']).toBe(String(Date.UTC(2026, 10, 25, 10, 0, 5) / 1000));
  });

  it('fail verification with another secret, another id or a changed body', () => {
    const headers = signatureHeaders(secret, '42', new Date(), body);
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    expect(() => new Webhook(other).verify(body, { ...headers })).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': '43' })).toThrow();
    expect(() => new Webhook(secret).verify(body.replace('42', '41'), { ...headers })).toThrow();
  });
});
