import { once } from 'node:events';
import { connect } from 'node:net';
import { MemoryRecordRepository } from '@workplan/adapter-memory';
import { workSchedule, type ReadOptions, type RecordRepository } from '@workplan/core';
import { clearOfMinuteEnd, expectProblem, send, type HttpAnswer } from '@workplan/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { fingerprintOf } from './api-keys.js';
import { type HitCounter } from './hit-store.js';
import { type HttpAppOptions } from './http-app.js';
import { type AnsweredRequest } from './response-observer.js';
import { startMemoryApp, type MemoryApp } from './testing/memory-app.js';

const key = 'production-test-key-01';
let running: MemoryApp | undefined;

async function serve(
  options: Partial<Omit<HttpAppOptions, 'resources' | 'keys'>> = {},
  workSchedules: RecordRepository<'value'> = new MemoryRecordRepository(workSchedule),
): Promise<string> {
  running = await startMemoryApp({ key, workplan: { repositories: { workSchedules } }, http: options });
  return running.baseUrl;
}

afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('rate limits', () => {
  it('answers a key over its requests a minute of the clock with 429, Retry-After to the next minute, and the RateLimit headers', async () => {
    const baseUrl = await serve({ rateLimitPerMinute: 3 });
    await clearOfMinuteEnd(3000);
    const toNextMinute = Math.ceil((60_000 - (Date.now() % 60_000)) / 1000);
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await send(baseUrl, { path: '/api/v1/scales', headers: { key } })).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await send(baseUrl, { path: '/api/v1/scales', headers: { key } });
    expectProblem(limited, 429, 'RATE_LIMITED', 'Não foi possível retornar as escalas de trabalho.');
    // The window is the minute of the clock, as every instance counts it, not 60 s from the first request.
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(toNextMinute);
    // Both policies speak: failed key attempts by address, and requests by key.
    expect(limited.headers.ratelimit).toMatch(/"requests"; ?r=0; ?t=\d+/u);
    expect(limited.headers['ratelimit-policy']).toMatch(/"requests"; ?q=3; ?w=60/u);
  }, 3000 + 5000);

  it('limits failed key attempts per address, not successful ones', async () => {
    const baseUrl = await serve({ rateLimitPerMinute: 2 });
    const wrong = () => send(baseUrl, { path: '/api/v1/scales', headers: { key: 'wrong-key-0123456789' } });
    expect([(await wrong()).status, (await wrong()).status]).toEqual([401, 401]);
    expectProblem(await wrong(), 429, 'RATE_LIMITED', 'Não foi possível retornar as escalas de trabalho.');
  });

  it('takes the client address from X-Forwarded-For only when told to trust the proxy', async () => {
    const baseUrl = await serve({ rateLimitPerMinute: 1, trustProxy: true });
    const wrongFrom = (address: string) =>
      send(baseUrl, { path: '/api/v1/scales', headers: { key: 'wrong-key-0123456789', 'x-forwarded-for': address } });
    expect((await wrongFrom('203.0.113.1')).status).toBe(401);
    expect((await wrongFrom('203.0.113.1')).status).toBe(429);
    expect((await wrongFrom('203.0.113.2')).status).toBe(401);
  });

  it('hostile 6: counts through a shared hit counter, so two apps over one counter hold one limit between them', async () => {
    const counts = new Map<string, number>();
    const shared: HitCounter = {
      hit: (hitKey, windowStart) => {
        const hits = (counts.get(`${hitKey}@${windowStart}`) ?? 0) + 1;
        counts.set(`${hitKey}@${windowStart}`, hits);
        return Promise.resolve(hits);
      },
    };
    const first = await startMemoryApp({ key, http: { rateLimitPerMinute: 4, hitCounter: shared } });
    const second = await startMemoryApp({ key, http: { rateLimitPerMinute: 4, hitCounter: shared } });
    try {
      const list = (app: MemoryApp) => send(app.baseUrl, { path: '/api/v1/scales', headers: { key } });
      const statuses = [];
      for (const app of [first, second, first, second, first, second]) statuses.push((await list(app)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
      expect([...counts.keys()].every((counted) => counted.startsWith('requests:'))).toBe(true);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('hostile 6: answers 503 STORAGE_UNAVAILABLE with Retry-After, never 500, when the hit counter fails', async () => {
    const unexpected: unknown[] = [];
    const failing: HitCounter = { hit: () => Promise.reject(new Error('the database did not answer')) };
    const baseUrl = await serve({ rateLimitPerMinute: 4, hitCounter: failing, onUnexpectedError: (error) => unexpected.push(error) });
    const answer = await send(baseUrl, { path: '/api/v1/scales', headers: { key } });
    expectProblem(answer, 503, 'STORAGE_UNAVAILABLE', 'Não foi possível retornar as escalas de trabalho.');
    expect(answer.headers['retry-after']).toBe('2');
    expect(unexpected).toEqual([]);
  });

  it('sends no rate limit headers when no limit is set', async () => {
    const answer = await send(await serve(), { path: '/api/v1/scales', headers: { key } });
    expect(answer.headers.ratelimit).toBeUndefined();
  });
});

describe('CORS', () => {
  it('answers a preflight from an allowed origin with 204, Allow and the CORS headers', async () => {
    const baseUrl = await serve({ corsOrigins: ['https://app.example.com'] });
    const headers = {
      origin: 'https://app.example.com',
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'key,content-type',
    };
    const answer = await send(baseUrl, { method: 'OPTIONS', path: '/api/v1/scale/x', headers });
    expect(answer.status).toBe(204);
    expect(answer.headers.allow).toBe('GET, HEAD, PUT, DELETE, OPTIONS');
    expect(answer.headers['access-control-allow-origin']).toBe('https://app.example.com');
    // A follower of the changes on another origin resumes with Last-Event-ID as a stream does.
    expect(answer.headers['access-control-allow-headers']).toBe('KEY,Content-Type,X-Request-Id,If-Match,If-None-Match,Last-Event-ID');
    const get = await send(baseUrl, { path: '/api/v1/scales?count=true', headers: { key, origin: 'https://app.example.com' } });
    expect(get.headers['x-total-count']).toBe('0');
    // A page's script reads only the headers exposed to it: the list's total among them.
    const exposed = String(get.headers['access-control-expose-headers']).split(',');
    expect(exposed).toEqual(expect.arrayContaining(['ETag', 'Location', 'Link', 'X-Total-Count', 'X-Request-Id', 'Retry-After']));
  });

  it('adds nothing for another origin, or when no origin is configured', async () => {
    const baseUrl = await serve({ corsOrigins: ['https://app.example.com'] });
    const corsHeaders = (answer: HttpAnswer) => Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'));
    const other = await send(baseUrl, { path: '/api/v1/scales', headers: { key, origin: 'https://evil.example' } });
    expect(corsHeaders(other)).toEqual([]);
    const preflight = { 'access-control-request-method': 'PUT', 'access-control-request-headers': 'key,content-type' };
    const otherPreflight = await send(baseUrl, { method: 'OPTIONS', path: '/api/v1/scale/x', headers: { origin: 'https://evil.example', ...preflight } });
    expect({ status: otherPreflight.status, cors: corsHeaders(otherPreflight) }).toEqual({ status: 204, cors: [] });
    expect(String(otherPreflight.headers.vary)).toMatch(/Origin/u);
    const noOrigin = await send(baseUrl, { method: 'OPTIONS', path: '/api/v1/scale/x' });
    expect(corsHeaders(noOrigin)).toEqual([]);
    expect(corsHeaders(await send(baseUrl, { path: '/api/v1/scales', headers: { key } }))).toEqual([]);
    await running?.close();
    const unset = await send(await serve(), { path: '/api/v1/scales', headers: { key, origin: 'https://app.example.com' } });
    expect(unset.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('time and size', () => {
  it('answers 503 when the storage overruns the request deadline, and drops the late answer', async () => {
    const slow = new MemoryRecordRepository(workSchedule);
    // The storage answers a list only once the test lets it, after the 503: without the
    // deadline, the request would wait for it to the end of the test (an order, not a time).
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const stalled: RecordRepository<'value'> = {
      insert: slow.insert.bind(slow),
      update: slow.update.bind(slow),
      findById: slow.findById.bind(slow),
      delete: slow.delete.bind(slow),
      query: slow.query.bind(slow),
      count: slow.count.bind(slow),
      list: async (page) => {
        await released;
        return slow.list(page);
      },
    };
    const baseUrl = await serve({ requestTimeoutMs: 100 }, stalled);
    const answer = await send(baseUrl, { path: '/api/v1/scales', headers: { key } });
    expectProblem(answer, 503, 'STORAGE_UNAVAILABLE', 'Não foi possível retornar as escalas de trabalho.');
    expect(answer.headers['retry-after']).toBe('2');
    release();
  });

  it('hostile 8: a result that comes after the deadline answered is dropped quietly, on every route', async () => {
    let delayMs = 0;
    const inner = new MemoryRecordRepository(workSchedule);
    const late = <A extends unknown[], R>(call: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return call(...args);
    };
    const workSchedules: RecordRepository<'value'> = {
      insert: late((r, k) => inner.insert(r, k)),
      update: late((id, c) => inner.update(id, c)),
      findById: late((id) => inner.findById(id)),
      list: late((p) => inner.list(p)),
      query: late((q) => inner.query(q)),
      count: late(() => inner.count()),
      delete: late((id) => inner.delete(id)),
    };
    const unexpected: unknown[] = [];
    const lateResults: string[] = [];
    running = await startMemoryApp({
      key,
      workplan: { repositories: { workSchedules } },
      http: {
        requestTimeoutMs: 100,
        onUnexpectedError: (error) => unexpected.push(error),
        onLateResult: (late) => lateResults.push(late.method),
      },
    });
    const json = { key, 'content-type': 'application/json' };
    const create = (value: string) => send(running?.baseUrl ?? '', { method: 'POST', path: '/api/v1/scale', headers: json, body: JSON.stringify({ value }) });
    const [kept, doomed] = await Promise.all([create('12x36'), create('6x1')]);
    const idOf = (answer: HttpAnswer) => (answer.json as { data: { id: string } }).data.id;
    delayMs = 300;
    const call = (method: string, path: string, body?: string) => send(running?.baseUrl ?? '', { method, path, headers: json, body });
    const answers = await Promise.all([
      call('POST', '/api/v1/scale', '{"value":"5x2"}'),
      call('GET', `/api/v1/scale/${idOf(kept)}`),
      call('PUT', `/api/v1/scale/${idOf(kept)}`, '{"value":"12x36 noturno"}'),
      call('DELETE', `/api/v1/scale/${idOf(doomed)}`),
      call('GET', '/api/v1/scales/1'),
      call('GET', '/api/v1/scales/1?sort=-value&count=true'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 503, 503, 503]);
    // An update reads, then writes: two late calls. Each comes once its storage call ends.
    await expect.poll(() => lateResults.length, { timeout: 10_000 }).toBe(6);
    expect(unexpected).toEqual([]);
    expect(lateResults.sort()).toEqual(['DELETE', 'GET', 'GET', 'GET', 'POST', 'PUT']);
  });

  it('hostile 7: a find or a list answered by the deadline is called off through the signal its storage was given', async () => {
    const calledOff: string[] = [];
    // Reads that never end by themselves: only their signal can end them.
    const untilCalledOff = (name: string) => (_what: unknown, options?: ReadOptions) =>
      new Promise<never>((_resolve, reject) => {
        const signal = options?.signal;
        signal?.addEventListener('abort', () => { calledOff.push(name); reject(new Error(`${name} called off`)); }, { once: true });
      });
    const inner = new MemoryRecordRepository(workSchedule);
    const workSchedules: RecordRepository<'value'> = {
      insert: (record, key) => inner.insert(record, key),
      update: (update, key) => inner.update(update, key),
      delete: (deletion) => inner.delete(deletion),
      findById: untilCalledOff('find'),
      list: untilCalledOff('list'),
      query: untilCalledOff('query'),
      count: (options) => inner.count(options),
    };
    const baseUrl = await serve({ requestTimeoutMs: 100 }, workSchedules);
    const answers = await Promise.all([
      send(baseUrl, { path: '/api/v1/scale/0190a000-0000-7000-8000-000000000001', headers: { key } }),
      send(baseUrl, { path: '/api/v1/scales', headers: { key } }),
      send(baseUrl, { path: '/api/v1/scales?q=turno', headers: { key } }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([503, 503, 503]);
    expect(calledOff.sort()).toEqual(['find', 'list', 'query']);
  });

  it('refuses a body over the limit as soon as Content-Length says so, before it is sent', async () => {
    const baseUrl = await serve();
    const { port } = new URL(baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    const head = `POST /api/v1/scale HTTP/1.1\r\nHost: x\r\nKEY: ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n`;
    socket.write(head);
    const [chunk] = (await once(socket, 'data')) as [Buffer];
    socket.destroy();
    expect(chunk.toString()).toMatch(/^HTTP\/1\.1 413 /u);
    expect(chunk.toString()).toContain('"code":"PAYLOAD_TOO_LARGE"');
  });
});

describe('observing answers', () => {
  it('reports each answer with its route pattern and the key\'s name (its fingerprint when unnamed), never the raw path or key', async () => {
    const seen: AnsweredRequest[] = [];
    const baseUrl = await serve({ onResponse: (answered) => seen.push(answered) });
    await send(baseUrl, { path: '/api/v1/scale/some-id', headers: { key, 'x-request-id': 'trace-1' } });
    await send(baseUrl, { path: '/nowhere' });
    expect(seen).toEqual([
      expect.objectContaining({ requestId: 'trace-1', method: 'GET', route: '/api/v1/scale/:id', status: 404 }),
      expect.objectContaining({ method: 'GET', route: 'unmatched', status: 404, keyName: undefined }),
    ]);
    expect(seen[0]?.keyName).toBe(fingerprintOf(key));
    expect(JSON.stringify(seen)).not.toContain(key);
  });

  it('reports the API document, the /docs page and its assets under their own route patterns', async () => {
    const seen: AnsweredRequest[] = [];
    const baseUrl = await serve({ onResponse: (answered) => seen.push(answered) });
    for (const path of ['/openapi.json', '/docs', '/docs/init.js', '/docs/assets/swagger-ui.css', '/docs/assets/missing.js']) {
      await send(baseUrl, { path });
    }
    expect(seen.map(({ route, status }) => `${String(status)} ${route}`)).toEqual([
      '200 /openapi.json',
      '200 /docs',
      '200 /docs/init.js',
      '200 /docs/assets/:file',
      '404 /docs/assets/:file',
    ]);
  });
});
