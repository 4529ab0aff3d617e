import { ferretdbBinary, OwnFerretDb } from '@workplan/testing/mongodb';
import { send, uniqueText, untilReady, type HttpAnswer } from '@workplan/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';
import { startService, type RunningService } from './service.js';

const ferretdb = ferretdbBinary('the MongoDB outage test');
const key = 'outage-test-key-0123456789';
const REQUEST_DEADLINE_MS = 120_000;

async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(ferretdb === undefined)('the app through a MongoDB outage', () => {
  let database: OwnFerretDb;
  let service: RunningService;
  const call = (method: string, path: string, body?: unknown): Promise<HttpAnswer> =>
    send(service.url, {
      method, path,
      headers: { key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const created: string[] = [];

  afterAll(async () => {
    await service.close();
    await database.kill();
  });

  it('serves live but not ready while the database is down at start, then comes up with it', async () => {
    database = await OwnFerretDb.prepare(ferretdb ?? '');
    const uri = database.uri('workplan_outage');
    // A request deadline past every test's own timeout: a 503 can only be the storage's (MONGODB_TIMEOUT_MS, 2 s).
    service = await startService(parseConfig({ PORT: '0', API_KEYS: key, STORAGE: 'mongodb', MONGODB_URI: uri, LOG_LEVEL: 'silent', REQUEST_TIMEOUT_MS: String(REQUEST_DEADLINE_MS) }));
    expect((await send(service.url, { path: '/health/live' })).status).toBe(200);
    expect((await send(service.url, { path: '/health/ready' })).status).toBe(503);
    expect((await call('GET', '/api/v1/scales')).status).toBe(503);
    // Down for longer than the driver's first connection takes to give up (it then closed
    // its topology, and every later call failed at once: the app never came up).
    await new Promise((resolve) => setTimeout(resolve, 4000));
    await database.start();
    await untilReady(service.url, 30_000);
  }, 60_000);

  it('keeps every acknowledged record and answers 503 quickly while the database is gone', async () => {
    for (let i = 0; i < 20; i += 1) {
      const answer = await call('POST', '/api/v1/scale', { value: uniqueText('antes') });
      expect(answer.status).toBe(201);
      created.push((answer.json as { data: { id: string } }).data.id);
    }
    await database.kill();
    // Answered at all, it was by the storage's own bound, not by the request deadline (an order, not a time).
    const during = await call('POST', '/api/v1/scale', { value: uniqueText('durante') });
    expect(during.status).toBe(503);
    expect(during.json).toMatchObject({ error: { code: 'STORAGE_UNAVAILABLE' } });
    expect(during.headers['retry-after']).toBe('2');
    expect((await send(service.url, { path: '/health/ready' })).status).toBe(503);
    expect((await send(service.url, { path: '/health/live' })).status).toBe(200);
  });

  it('recovers by itself when the database returns, with nothing acknowledged lost', async () => {
    await database.start();
    await untilReady(service.url, 30_000);
    await eventually(async () => (await call('GET', '/api/v1/scales')).status === 200);
    const listed = (await call('GET', '/api/v1/scales')).json as { data: { id: string }[] };
    expect(listed.data.map((r) => r.id)).toEqual(expect.arrayContaining(created));
    expect((await call('POST', '/api/v1/scale', { value: uniqueText('depois') })).status).toBe(201);
  });
});
