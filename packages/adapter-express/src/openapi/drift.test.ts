import { createMemoryStorage } from '@workplan/adapter-memory';
import { seedKinds, WorkplanError, type ChangeLog, type RecordRepository } from '@workplan/core';
import { judge, openEventStream, schemaCheckOf, send, sendRaw, uniqueText, type HttpAnswer } from '@workplan/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyEntryOf } from '../api-keys.js';
import { answerClientError } from '../client-error.js';
import { webhooksDescription } from '../resources.js';
import { type ApiRead } from '../api-read.js';
import { startMemoryApp, type MemoryApp } from '../testing/memory-app.js';
import { type Json } from './json.js';
import { openApiDocument } from './document.js';

const seedResources = Object.values(seedKinds);

const document = openApiDocument(seedResources);
const key = 'drift-test-key-0123456789';
const readKey = 'drift-read-key-0123456789';

const check = schemaCheckOf(document);

/** Makes a storage fail on demand, as a lost database does, to reach the 500 and 503 answers. */
let failure: (() => Error) | undefined;
function switchable<F extends string>(inner: RecordRepository<F>): RecordRepository<F> {
  const guard = <A extends unknown[], R>(call: (...args: A) => Promise<R>) => (...args: A) =>
    failure === undefined ? call(...args) : Promise.reject(failure());
  return {
    insert: guard((...args) => inner.insert(...args)),
    update: guard((...args) => inner.update(...args)),
    findById: guard((...args) => inner.findById(...args)),
    list: guard((...args) => inner.list(...args)),
    query: guard((...args) => inner.query(...args)),
    count: guard((...args) => inner.count(...args)),
    delete: guard((...args) => inner.delete(...args)),
  };
}

/** The change log, failing on demand as the repositories do. */
function switchableLog(inner: ChangeLog): ChangeLog {
  const guard = <A extends unknown[], R>(call: (...args: A) => Promise<R>) => (...args: A) =>
    failure === undefined ? call(...args) : Promise.reject(failure());
  return {
    read: guard((...args) => inner.read(...args)),
    history: guard((...args) => inner.history(...args)),
    waitAfter: (...args) => inner.waitAfter(...args),
    prune: (...args) => inner.prune(...args),
  };
}

/** The webhooks' state as the app reads it (one subscription failing), failing on demand as the storage does. */
const webhooksRead: ApiRead = {
  path: `/${webhooksDescription.path}`,
  message: webhooksDescription.message,
  read: async () => {
    if (failure !== undefined) throw failure();
    const since = new Date('2026-11-22T15:02:11.000Z');
    return [
      { name: 'folha', url: 'https://folha.example/', resources: ['scale'], cursor: '0', lagChanges: 2, lagSeconds: 1.5, lastError: 'HTTP 503', failingSince: since, nextAttempt: since, failing: false },
      { name: 'ponto', url: 'http://user:***@ponto.example/', resources: ['scale', 'costCenter'], cursor: '2', lagChanges: 0, lagSeconds: 0, lastError: null, failingSince: null, nextAttempt: null, failing: false },
    ];
  },
};

/** Time-ordered v7 ids, as the service makes them, without a dependency for a test. */
let sequence = 0;
const ids = {
  next: () => {
    const time = Date.now().toString(16).padStart(12, '0');
    const rest = (sequence++).toString(16).padStart(18, '0');
    return `${time.slice(0, 8)}-${time.slice(8)}-7${rest.slice(0, 3)}-8${rest.slice(3, 6)}-${rest.slice(6)}`;
  },
};

let running: MemoryApp;
let baseUrl: string;
const seen = new Set<string>();
const storage = createMemoryStorage();

beforeAll(async () => {
  running = await startMemoryApp({
    key,
    otherKeys: [keyEntryOf(readKey, { name: 'leitura', role: 'read' })],
    workplan: {
      repositories: { workSchedules: switchable(storage.repositories.workSchedules), costCenters: switchable(storage.repositories.costCenters) },
      changes: switchableLog(storage.changes),
      ids,
      maxPageSize: 2,
    },
    http: { isReady: () => Promise.resolve(failure === undefined), reads: [webhooksRead] },
  });
  running.server.on('clientError', answerClientError);
  baseUrl = running.baseUrl;
});

afterAll(async () => {
  await running.close();
});

/** Holds one answer to the document, failing the test on any disagreement. */
function conforms(method: string, target: string, answer: HttpAnswer, requestBody?: unknown): HttpAnswer {
  const [path = '', query] = target.split(/\?(.*)/su);
  const verdict = judge(document, check, { method, path, ...(query === undefined ? {} : { query }), requestBody, ...answer });
  seen.add(verdict.response);
  expect(verdict.problems).toEqual([]);
  return answer;
}

interface Call {
  readonly key?: string | null;
  readonly json?: unknown;
  readonly body?: string;
  readonly type?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

async function exchange(method: string, path: string, call: Call = {}): Promise<HttpAnswer> {
  const body = call.body ?? (call.json === undefined ? undefined : JSON.stringify(call.json));
  const headers = {
    ...(call.key === null ? {} : { key: call.key ?? key }),
    ...(body === undefined ? {} : { 'content-type': call.type ?? 'application/json' }),
    ...call.headers,
  };
  return conforms(method, path, await send(baseUrl, { method, path, headers, ...(body === undefined ? {} : { body }) }), call.json);
}

async function raw(method: string, path: string, header: string): Promise<HttpAnswer> {
  return conforms(method, path, await sendRaw(baseUrl, `${method} ${path} HTTP/1.1\r\nHost: x\r\n${header}\r\n\r\n`));
}

const methods = ['get', 'head', 'post', 'put', 'delete'];
const operations = Object.entries(document.paths as Record<string, Json>).flatMap(([template, item]) =>
  Object.keys(item)
    .filter((m) => methods.includes(m))
    .map((m) => ({ template, method: m.toUpperCase(), statuses: Object.keys((item[m] as { responses: Json }).responses) })),
);

/** Searches, orders, counts and cursors (issue 28), and a request made of the examples of the list's parameters. */
async function findingExchanges(plural: string, field: string): Promise<void> {
  for (const method of ['GET', 'HEAD']) {
    for (const form of ['', '/1', '/0/1']) {
      const first = await exchange(method, `/api/v1/${plural}${form}?q=${encodeURIComponent(' TEXTO ')}&sort=-${field}&count=true`);
      const next = /^<([^>]+)>/u.exec(String(first.headers.link ?? ''))?.[1];
      if (next !== undefined) await exchange(method, next);
      await exchange(method, `/api/v1/${plural}${form}?count=true&unknown=1`);
      for (const bad of ['sort=foo', 'count=yes', 'q=a&q=b', 'after=x!', `q=${'x'.repeat(201)}`]) await exchange(method, `/api/v1/${plural}${form}?${bad}`);
    }
  }
  const parameters = (document.paths as Record<string, { get: { parameters: { name: string; in: string; example: string }[] } }>)[`/api/v1/${plural}`]?.get.parameters ?? [];
  const examples = parameters.filter((p) => p.in === 'query').map((p) => `${p.name}=${encodeURIComponent(p.example)}`);
  expect(examples).toHaveLength(4);
  expect((await exchange('GET', `/api/v1/${plural}?${examples.join('&')}`)).status).toBe(200);
}

describe('every answer agrees with openapi.json', () => {
  it.each(seedResources)('$singular: success, and each failure of its own', async ({ singular, plural, field }) => {
    const one = `/api/v1/${singular}`;
    const created = await exchange('POST', one, { json: { [field]: uniqueText() } });
    const id = (created.json as { data: { id: string } }).data.id;
    const other = (await exchange('POST', one, { json: { [field]: uniqueText() } })).json as { data: Json };
    await exchange('POST', one, { json: { [field]: uniqueText() } });
    for (const path of [one, `${one}/${id}`]) {
      const method = path === one ? 'POST' : 'PUT';
      await exchange(method, path, { body: '{"x":' });
      await exchange(method, path, { json: { [field]: ' ' } });
      await exchange(method, path, { json: other.data });
      await exchange(method, path, { json: { [field]: 'x' }, type: 'text/plain' });
      await exchange(method, path, { body: JSON.stringify({ [field]: 'x', pad: 'a'.repeat(17_000) }) });
    }
    const stale = { 'if-match': created.headers.etag ?? '' };
    const current = (await exchange('PUT', `${one}/${id}`, { json: { [field]: uniqueText() } })).headers.etag ?? '';
    await exchange('PUT', `${one}/${id}`, { json: { [field]: uniqueText() }, headers: stale });
    await exchange('DELETE', `${one}/${id}`, { headers: stale });
    await exchange('PUT', `${one}/nao-existe`, { json: { [field]: uniqueText() } });
    for (const method of ['GET', 'HEAD']) {
      await exchange(method, `${one}/${id}/history`);
      await exchange(method, `${one}/nao-existe/history`);
      // A history in pages: the Link of the next, and the feed's refusals of a page.
      const first = await exchange(method, `${one}/${id}/history?limit=1`);
      const next = /^<([^>]+)>/u.exec(String(first.headers.link ?? ''))?.[1];
      expect(next).toBeDefined();
      await exchange(method, next ?? '');
      for (const bad of ['after=x', 'limit=0', 'limit=1&limit=1']) await exchange(method, `${one}/${id}/history?${bad}`);
      await exchange(method, `${one}/${id}`);
      await exchange(method, `${one}/${id}`, { headers: { 'if-none-match': current } });
      await exchange(method, `${one}/nao-existe`);
      await exchange(method, `${one}/%E0%A4%A`);
      for (const list of [`/api/v1/${plural}`, `/api/v1/${plural}/1`, `/api/v1/${plural}/0/1`, `/api/v1/${plural}/abc`, `/api/v1/${plural}/0/abc`]) {
        await exchange(method, list);
      }
    }
    await findingExchanges(plural, field);
    await exchange('DELETE', `${one}/${id}`);
    await exchange('DELETE', `${one}/${id}`);
    for (const path of [one, `${one}/x`, `${one}/x/history`, `/api/v1/${plural}`, `/api/v1/${plural}/1`, `/api/v1/${plural}/0/1`]) {
      await exchange('OPTIONS', path, { key: null });
      await exchange('PATCH', path, { key: null });
    }
    await exchange('GET', `/api/v1/${singular}/x/y`, { key: null });
  });

  it('the changes: pages, a long poll, a stream, and each failure of their own', async () => {
    for (const method of ['GET', 'HEAD']) {
      const first = await exchange(method, '/api/v1/changes?limit=2');
      const next = /^<([^>]+)>/u.exec(String(first.headers.link ?? ''))?.[1];
      expect(next).toBeDefined();
      await exchange(method, next ?? '');
      await exchange(method, '/api/v1/changes?after=999999&wait=1');
      for (const bad of ['after=x', 'limit=0', 'wait=31', 'after=1&after=1']) await exchange(method, `/api/v1/changes?${bad}`);
      // The longest id the document's pattern admits is read; one digit more is refused, even below 2^53.
      expect((await exchange(method, '/api/v1/changes?after=999999999999999')).status).toBe(200);
      expect((await exchange(method, '/api/v1/changes?after=9007199254740991')).status).toBe(400);
    }
    // A stream (GET only) starts from Last-Event-ID, held to the same pattern.
    expect((await exchange('GET', '/api/v1/changes', { headers: { 'last-event-id': '9007199254740991', accept: 'text/event-stream' } })).status).toBe(400);
    const stream = await openEventStream(baseUrl, '/api/v1/changes?limit=1', { key });
    await stream.events(1);
    stream.close();
    // A stream never ends by itself: held to the document by its headers alone.
    conforms('GET', '/api/v1/changes', { status: stream.status, headers: stream.headers, text: '', json: undefined });
    for (const method of ['OPTIONS', 'PATCH']) await exchange(method, '/api/v1/changes', { key: null });
    const parameters = (document.paths as Record<string, { get: { parameters: { name: string; in: string; example?: string }[] } }>)['/api/v1/changes']?.get.parameters ?? [];
    const examples = parameters.filter((p) => p.in === 'query').map((p) => `${p.name}=${encodeURIComponent(p.example ?? '')}`);
    expect(examples).toHaveLength(3);
    expect((await exchange('GET', `/api/v1/changes?${examples.join('&').replace('wait=30', 'wait=1')}`)).status).toBe(200);
    // Last: every change is pruned, and reading from before them is answered 410.
    await storage.changes.prune(new Date(Date.now() + 60_000));
    for (const method of ['GET', 'HEAD']) expect((await exchange(method, '/api/v1/changes?after=1')).status).toBe(410);
    // And a page of a record's history from before them too, on each resource.
    for (const { singular, field } of seedResources) {
      const recordId = ((await exchange('POST', `/api/v1/${singular}`, { json: { [field]: uniqueText() } })).json as { data: { id: string } }).data.id;
      for (const method of ['GET', 'HEAD']) expect((await exchange(method, `/api/v1/${singular}/${recordId}/history?after=1`)).status).toBe(410);
    }
  });

  it('the webhooks: where each subscription stands, for any key', async () => {
    for (const method of ['GET', 'HEAD']) {
      for (const key of [undefined, readKey]) expect((await exchange(method, '/api/v1/webhooks', key === undefined ? {} : { key })).status).toBe(200);
    }
    for (const method of ['OPTIONS', 'PATCH']) await exchange(method, '/api/v1/webhooks', { key: null });
  });

  it('health, docs and unknown routes', async () => {
    for (const path of ['/health/live', '/health/ready', '/openapi.json', '/docs']) await exchange('GET', path, { key: null });
    for (const path of ['/health/live', '/health/ready']) {
      await exchange('HEAD', path, { key: null });
      await exchange('OPTIONS', path, { key: null });
    }
    await exchange('GET', '/api/v2/scales', { key: null });
  });

  it.each(operations)('$method $template: 401, 403, 500, 503, 400 and 431 where listed', async ({ template, method, statuses }) => {
    const path = template.replace('{id}', 'x').replace('{skip}', '0').replace('{limit}', '1');
    const listed = (status: string) => statuses.includes(status);
    const json = method === 'POST' || method === 'PUT' ? { value: uniqueText(), title: uniqueText() } : undefined;
    if (listed('401')) await exchange(method, path, { key: null, json });
    // A read key is refused every write, and only writes list 403.
    expect((await exchange(method, path, { key: readKey, json })).status === 403).toBe(listed('403'));
    for (const [status, fail] of [['500', () => new Error('boom')], ['503', () => WorkplanError.storageUnavailable(new Error('timeout'))]] as const) {
      if (!listed(status)) continue;
      failure = fail;
      await exchange(method, path, { json }).finally(() => { failure = undefined; });
    }
    if (listed('400')) await raw(method, path, 'KE\x01Y: a');
    if (listed('431')) await raw(method, path, `X-Big: ${'a'.repeat(20_000)}`);
  });

  it('holds the query of a success to the parameters the document declares, and ignores one it does not', async () => {
    const answer = await send(baseUrl, { path: '/api/v1/scales?sort=value', headers: { key } });
    const judged = (query: string) => judge(document, check, { method: 'GET', path: '/api/v1/scales', query, ...answer }).problems;
    expect(judged('sort=value&count=true&unknown=1')).toEqual([]);
    expect(judged('sort=title')).toEqual([expect.stringContaining('parameter sort') as unknown]);
    expect(judged('count=yes&after=x!')).toHaveLength(2);
  });

  // 408 needs a client slower than the server's timers: the app's tests as a process pin it.
  it('has been answered with every status the document lists, except 429 (only with RATE_LIMIT_PER_MINUTE) and 408', () => {
    const documented = operations.flatMap(({ template, method, statuses }) => statuses.map((status) => `${method} ${template} ${status}`));
    expect(documented.filter((r) => !seen.has(r) && !r.endsWith(' 429') && !r.endsWith(' 408'))).toEqual([]);
  });
});
