import { send, sendRaw } from '@workplan/testing';
import { describe, expect, it } from 'vitest';
import { startMemoryApp } from './testing/memory-app.js';

const key = 'envelope-test-key-0123';
const headers = { key, 'content-type': 'application/json' };

// A list's page, kept, and a find's record are framed alike: the length of the UTF-8
// bytes, none for HEAD.
describe('the envelope of a success', () => {
  it('frames a list with its length in bytes, the same as its text says, and HEAD with no body', async () => {
    const app = await startMemoryApp({ key });
    try {
      // Multi-byte texts, so a length counted in characters would be short.
      for (const value of ['Operações', 'emoji 😀 𝄞', 'x'.repeat(200)]) {
        await send(app.baseUrl, { method: 'POST', path: '/api/v1/scale', headers, body: JSON.stringify({ value }) });
      }
      for (const path of ['/api/v1/scales', '/api/v1/scales/0/2', '/api/v1/scales?sort=-value']) {
        const first = await send(app.baseUrl, { path, headers: { key } });
        // The second answer is served from the page kept by the first.
        const again = await send(app.baseUrl, { path, headers: { key } });
        for (const answer of [first, again]) {
          expect(answer.status).toBe(200);
          expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.text));
          expect(answer.json).toMatchObject({ success: true, data: expect.any(Array) as unknown });
        }
        expect(again.text).toBe(first.text);
        const head = await sendRaw(app.baseUrl, `HEAD ${path} HTTP/1.1\r\nHost: x\r\nkey: ${key}\r\nConnection: close\r\n\r\n`);
        expect([head.status, head.headers['content-length'], head.text]).toEqual([200, first.headers['content-length'], '']);
      }
      const list = (await send(app.baseUrl, { path: '/api/v1/scales', headers: { key } })).json as { data: { value: string }[] };
      expect(list.data.map((record) => record.value)).toEqual(['Operações', 'emoji 😀 𝄞', 'x'.repeat(200)]);
    } finally {
      await app.close();
    }
  });

  it('frames a long list the same way', async () => {
    const app = await startMemoryApp({ key });
    try {
      for (let n = 0; n < 120; n += 1) {
        await send(app.baseUrl, { method: 'POST', path: '/api/v1/scale', headers, body: JSON.stringify({ value: `ção ${String(n)} ${'y'.repeat(150)}` }) });
      }
      const answer = await send(app.baseUrl, { path: '/api/v1/scales/0/120', headers: { key } });
      expect(answer.text.length).toBeGreaterThan(16_384);
      expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.text));
      expect((answer.json as { data: unknown[] }).data).toHaveLength(120);
    } finally {
      await app.close();
    }
  });
});
