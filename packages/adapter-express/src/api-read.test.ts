import { WorkplanError } from '@workplan/core';
import { expectProblem, send } from '@workplan/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { keyEntryOf } from './api-keys.js';
import { type ApiRead } from './api-read.js';
import { startMemoryApp, type MemoryApp } from './testing/memory-app.js';

const writeKey = 'reads-write-key-0123';
const readKey = 'reads-read-key-01234';
const message = 'Não foi possível retornar os webhooks.';

describe('read-only paths the app adds', () => {
  let running: MemoryApp | undefined;
  afterEach(async () => {
    await running?.close();
  });

  const serve = async (read: ApiRead['read']): Promise<MemoryApp> => {
    running = await startMemoryApp({
      key: writeKey,
      otherKeys: [keyEntryOf(readKey, { name: 'Folha', role: 'read' })],
      http: { reads: [{ path: '/webhooks', message, read }] },
    });
    return running;
  };

  it('answer any key in the envelope, and only GET, HEAD and OPTIONS', async () => {
    const { baseUrl } = await serve(async () => [{ name: 'folha', at: new Date('2026-11-25T10:00:00.000Z') }]);
    for (const key of [readKey, writeKey]) {
      const answer = await send(baseUrl, { path: '/api/v1/webhooks', headers: { key } });
      expect({ status: answer.status, json: answer.json }).toEqual({ status: 200, json: { success: true, data: [{ name: 'folha', at: '2026-11-25T10:00:00.000Z' }] } });
    }
    expectProblem(await send(baseUrl, { path: '/api/v1/webhooks' }), 401, 'UNAUTHORIZED', message);
    const post = await send(baseUrl, { method: 'POST', path: '/api/v1/webhooks', headers: { key: writeKey } });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('answer a storage that did not answer as every path does: 503 with the path’s message', async () => {
    const { baseUrl } = await serve(async () => {
      throw WorkplanError.storageUnavailable(new Error('ledger down'));
    });
    const answer = await send(baseUrl, { path: '/api/v1/webhooks', headers: { key: readKey } });
    expectProblem(answer, 503, 'STORAGE_UNAVAILABLE', message);
    expect(answer.text).not.toContain('ledger down');
  });
});
