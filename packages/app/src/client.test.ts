// The typed client against the real service, in-process on the memory store. It lives with
// the app, not the client, so the client depends on nothing of ours (the console, which the
// app serves, depends on the client).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  entityTagOf,
  nextLinkOf,
  WorkplanClientError,
  type CostCenter,
  type PageRequest,
  type ResourceClient,
  type WorkplanClient,
} from '@workplan/client';
import { parseConfig, startService, type RunningService } from './index.js';

const key = 'client-test-key-0123456789';
let service: RunningService;
let client: WorkplanClient;

beforeAll(async () => {
  service = await startService(parseConfig({ PORT: '0', HOST: '127.0.0.1', API_KEYS: key, STORAGE: 'memory', LIST_MAX_LIMIT: '50', LOG_LEVEL: 'silent' }));
  client = createClient({ baseUrl: `${service.url}/`, key });
});

afterAll(async () => {
  await service.close();
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/u;

function describeResource<F extends 'value' | 'title'>(name: string, field: F, resource: () => ResourceClient<F>, text: (n: number) => string): void {
  describe(name, () => {
    it('creates, finds, updates, lists and deletes', async () => {
      const input = (n: number) => ({ [field]: text(n) }) as { readonly [K in F]: string };
      const created = await resource().create(input(1));
      expect(created).toMatchObject({ [field]: text(1) });
      expect(created.createdAt).toMatch(ISO);
      await expect(resource().find(created.id)).resolves.toEqual(created);
      const updated = await resource().update(created.id, input(2));
      expect(updated).toMatchObject({ id: created.id, [field]: text(2), createdAt: created.createdAt });
      const second = await resource().create(input(3));
      expect((await resource().list()).map((r) => r.id)).toEqual([created.id, second.id]);
      expect((await resource().list({ skip: 1, limit: 1 })).map((r) => r.id)).toEqual([second.id]);
      expect((await resource().list({ limit: 1 })).map((r) => r.id)).toEqual([created.id]);
      await resource().delete(created.id);
      await expect(resource().find(created.id)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    });

    it('remembers the tag of what it reads, and updates or deletes only while the record is unchanged', async () => {
      const input = (n: number) => ({ [field]: text(n) }) as { readonly [K in F]: string };
      const created = await resource().create(input(20));
      const tag = entityTagOf(created);
      expect(tag).toMatch(/^"[^"]+"$/u);
      const found = await resource().find(created.id);
      expect(entityTagOf(found)).toBe(tag);
      const updated = await resource().update(created.id, input(21), { ifMatch: found });
      expect(entityTagOf(updated)).not.toBe(tag);
      await expect(resource().update(created.id, input(22), { ifMatch: found })).rejects.toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
      await expect(resource().delete(created.id, { ifMatch: tag ?? '' })).rejects.toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
      await expect(resource().find(created.id)).resolves.toEqual(updated);
      await expect(resource().update(created.id, input(23), { ifMatch: { ...updated } })).rejects.toThrow(TypeError);
      await resource().delete(created.id, { ifMatch: updated });
      await expect(resource().find(created.id)).rejects.toMatchObject({ status: 404 });
    });

    it('rejects a clash with a typed error carrying the holder', async () => {
      const holder = await resource().create({ [field]: text(10) } as { readonly [K in F]: string });
      const clash = resource().create({ [field]: text(10).toUpperCase() } as { readonly [K in F]: string });
      await expect(clash).rejects.toBeInstanceOf(WorkplanClientError);
      await expect(clash).rejects.toMatchObject({ status: 409, code: 'CONFLICT', existingId: holder.id });
      await expect(clash).rejects.toSatisfy((e: unknown) => e instanceof WorkplanClientError && e.detail.length > 0);
    });
  });
}

describeResource('scales', 'value', () => client.scales, (n) => `turno ${n}`);
describeResource('costCenters', 'title', () => client.costCenters, (n) => `centro ${n}`);

describe('errors', () => {
  it('rejects a wrong key with 401, the operation message and the request id', async () => {
    const stranger = createClient({ baseUrl: service.url, key: 'not-a-key-at-all-000' });
    const error: unknown = await stranger.scales.list().catch((e: unknown) => e);
    if (!(error instanceof WorkplanClientError)) throw new Error(`expected a WorkplanClientError, got ${String(error)}`);
    expect({ status: error.status, code: error.code, message: error.message }).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'Não foi possível retornar as escalas de trabalho.',
    });
    expect(error.requestId).not.toBe('');
  });

  it('rejects an answer that is not the envelope with UNEXPECTED_RESPONSE', async () => {
    const proxy = createClient({ baseUrl: service.url, key, fetch: () => Promise.resolve(new Response('<html>', { status: 502 })) });
    await expect(proxy.costCenters.find('x')).rejects.toMatchObject({ status: 502, code: 'UNEXPECTED_RESPONSE' });
  });
});

describe('a client made wrong', () => {
  it('is refused when made, not retried as a lost network: a baseUrl that is no absolute http(s) URL, a key that is not visible ASCII', () => {
    for (const baseUrl of ['127.0.0.1:3000', 'localhost', '/api', 'ftp://127.0.0.1/']) {
      expect(() => createClient({ baseUrl, key }), baseUrl).toThrow(new TypeError(`baseUrl must be an absolute http or https URL, such as http://127.0.0.1:3000 (given: ${JSON.stringify(baseUrl)})`));
    }
    for (const wrong of ['chave-ção-€-1234567890', 'with space-0123456789', 'line\nbreak-0123456789']) {
      expect(() => createClient({ baseUrl: service.url, key: wrong })).toThrow(new TypeError('key must be visible ASCII (! to ~), as the service\'s keys are'));
    }
    expect(() => createClient({ baseUrl: 'https://workplan.example/', key: '' })).not.toThrow();
  });

  it('takes a key with whitespace around it (read from a file with its newline), as fetch drops it from a header', async () => {
    for (const padded of [`${key}\n`, ` ${key}\r\n`, `\t${key} `]) {
      await expect(createClient({ baseUrl: service.url, key: padded }).scales.list({ limit: 1 }), JSON.stringify(padded)).resolves.toBeInstanceOf(Array);
    }
  });

  it('refuses an id a URL would take as a step in the path, which would reach another route', async () => {
    for (const id of ['.', '..']) {
      await expect(client.scales.find(id)).rejects.toThrow(new TypeError(`the id ${JSON.stringify(id)} cannot be sent in a URL path (no record the service made has it)`));
      await expect(client.costCenters.update(id, { title: 'x' })).rejects.toThrow(TypeError);
      await expect(client.costCenters.delete(id)).rejects.toThrow(TypeError);
    }
    await expect(client.scales.find('...')).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });
});

describe('pages', () => {
  it('says which page follows, from the answer\'s Link: rel="next", and walks every page to the end', async () => {
    const made = [];
    for (let n = 0; n < 5; n += 1) made.push((await client.costCenters.create({ title: `página ${n}` })).id);
    const all = (await client.costCenters.list()).map((r) => r.id);
    expect(all).toEqual(expect.arrayContaining(made));

    const first = await client.costCenters.listPage({ limit: 2 });
    expect(first.records.map((r) => r.id)).toEqual(all.slice(0, 2));
    expect({ next: first.next, hasMore: first.hasMore }).toEqual({ next: { skip: 2, limit: 2 }, hasMore: true });
    const last = await client.costCenters.listPage({ skip: all.length - 1, limit: 2 });
    expect({ next: last.next, hasMore: last.hasMore, count: last.records.length }).toEqual({ next: undefined, hasMore: false, count: 1 });

    const walked = [];
    for await (const page of client.costCenters.pages({ limit: 2 })) walked.push(page.records.map((r) => r.id));
    expect(walked.flat()).toEqual(all);
    expect(walked).toHaveLength(Math.ceil(all.length / 2));
  });

  it('walks a plain list along a cursor: a record deleted behind the walk pushes none out of sight', async () => {
    const made = [];
    for (let n = 0; n < 6; n += 1) made.push(await client.scales.create({ value: `turno andado ${n}` }));
    const before = (await client.scales.list()).map((r) => r.id);
    const seen: string[] = [];
    for await (const page of client.scales.pages({ limit: 2 })) {
      if (seen.length === 0) await client.scales.delete(page.records[0]?.id ?? '');
      seen.push(...page.records.map((r) => r.id));
    }
    expect(seen).toEqual(before);
    for (const record of made) await client.scales.delete(record.id).catch(() => undefined);
  });

  it('follows next past the service\'s largest page when no page is given', async () => {
    for (let n = 0; n < 55; n += 1) await client.scales.create({ value: `escala em massa ${n}` });
    const first = await client.scales.listPage();
    expect({ count: first.records.length, next: first.next }).toEqual({ count: 50, next: { skip: 50, limit: 50 } });
    let count = 0;
    for await (const page of client.scales.pages()) count += page.records.length;
    expect(count).toBe((await client.scales.list({ skip: 0, limit: 50 })).length + (await client.scales.list({ skip: 50, limit: 50 })).length);
  });

  it('reads the next link among others, with rel given as one of several relations', () => {
    expect(nextLinkOf('</api/v1/scales/20/10>; rel="next"')).toBe('/api/v1/scales/20/10');
    expect(nextLinkOf('</a>; rel="prev", </b/30/10>; rel="last next"; title="x"')).toBe('/b/30/10');
    expect(nextLinkOf('</b/3/1>; REL=Next')).toBe('/b/3/1');
    expect(nextLinkOf('</a>; rel="prev"')).toBeUndefined();
    expect(nextLinkOf(null)).toBeUndefined();
  });
});

describe('finding records', () => {
  let token = '';
  let made: CostCenter[] = [];
  beforeAll(async () => {
    token = `busca${Date.now().toString(36)}`;
    made = [];
    for (const title of ['Manutenção Elétrica', 'Álvaro', 'alvaro', 'Zeca']) {
      made.push(await client.costCenters.create({ title: `${title} ${token}` }));
      // Records made in one millisecond tie on createdAt (then id decides): the creation order checked below needs the clock to move.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  });
  const titles = (records: readonly CostCenter[]) => records.map((record) => record.title.replace(` ${token}`, ''));

  it('finds with q, accents and case aside, and orders with sort, either way', async () => {
    expect(titles(await client.costCenters.list({ q: `MANUTENCAO eletrica ${token}` }))).toEqual(['Manutenção Elétrica']);
    expect(titles(await client.costCenters.list({ q: token, sort: 'title' }))).toEqual(['Álvaro', 'alvaro', 'Manutenção Elétrica', 'Zeca']);
    expect(titles(await client.costCenters.list({ q: token, sort: '-title', limit: 3 }))).toEqual(['Zeca', 'Manutenção Elétrica', 'Álvaro']);
    expect(titles(await client.costCenters.list({ q: token, sort: '-createdAt' }))).toEqual(['Zeca', 'alvaro', 'Álvaro', 'Manutenção Elétrica']);
  });

  it('gives the total with count: true, on every page, and none without it', async () => {
    const counted = await client.costCenters.listPage({ q: token, count: true, limit: 1 });
    expect({ total: counted.total, shown: counted.records.length }).toEqual({ total: 4, shown: 1 });
    expect((await client.costCenters.listPage({ q: token, limit: 1 })).total).toBeUndefined();
    // count: false asks for no count: the service refuses count=false, so it is not sent.
    expect((await client.costCenters.listPage({ q: token, count: false, limit: 1 })).total).toBeUndefined();
    const all = await client.costCenters.listPage({ count: true });
    expect(all.total).toBeGreaterThanOrEqual(4);
  });

  it('walks a search in an order to the end with pages(), following next with its cursor', async () => {
    const walked: CostCenter[][] = [];
    const nexts: unknown[] = [];
    for await (const page of client.costCenters.pages({ q: token, sort: 'title', count: true, limit: 1 })) {
      walked.push(page.records);
      nexts.push(page.next);
      expect(page.total).toBe(4);
    }
    expect(titles(walked.flat())).toEqual(['Álvaro', 'alvaro', 'Manutenção Elétrica', 'Zeca']);
    expect(nexts.slice(0, 3)).toEqual(Array.from({ length: 3 }, () => ({ limit: 1, q: token, sort: 'title', count: true, after: expect.stringMatching(/^[\w-]+$/u) as unknown })));
    expect(nexts[3]).toBeUndefined();
    const second = await client.costCenters.listPage(nexts[0] as PageRequest<'title'>);
    expect(titles(second.records)).toEqual(['alvaro']);
  });

  it('rejects a sort the service does not take with INVALID_QUERY and the list message, and a skip without a limit before sending', async () => {
    const wrong = client.costCenters.list({ sort: 'value' as 'title' });
    await expect(wrong).rejects.toMatchObject({ status: 400, code: 'INVALID_QUERY', message: 'Não foi possível retornar os centros de custo.' });
    await expect(client.costCenters.list({ skip: 10 })).rejects.toThrow(TypeError);
  });

  it('keeps skip links of a plain list, count included', async () => {
    const page = await client.costCenters.listPage({ limit: 2, count: true });
    expect(page.next).toEqual({ skip: 2, limit: 2, count: true });
    expect((await client.costCenters.listPage(page.next)).total).toBe(page.total);
  });
});

/** A fetch that answers 503 (with `retryAfter` if given) `times` times, then passes through to the real one. */
function unavailableThen(times: number, retryAfter?: string): { fetch: typeof fetch; calls: () => number } {
  let calls = 0;
  const envelope = { success: false, message: 'Serviço indisponível.', error: { code: 'STORAGE_UNAVAILABLE', detail: 'x', requestId: 'r' } };
  return {
    calls: () => calls,
    fetch: (input, init) => {
      calls += 1;
      if (calls > times) return fetch(input, init);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
      return Promise.resolve(new Response(JSON.stringify(envelope), { status: 503, headers }));
    },
  };
}

/** A fetch that never answers, but rejects as fetch does when its signal aborts. */
const silentFetch: typeof fetch = (_input, init) =>
  new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => {
      reject(init.signal?.reason as Error);
    });
  });

describe('time limits, cancelling and retries', () => {
  it('rejects with a TimeoutError when the service does not answer within timeoutMs, the client\'s or the call\'s', async () => {
    // The client's 60 s would outlast the test: rejected at all, it was by the call's 50 ms.
    const slow = createClient({ baseUrl: service.url, key, fetch: silentFetch, timeoutMs: 60_000 });
    await expect(slow.scales.list(undefined, { timeoutMs: 50 })).rejects.toMatchObject({ name: 'TimeoutError' });
    const byDefault = createClient({ baseUrl: service.url, key, fetch: silentFetch, timeoutMs: 50 });
    await expect(byDefault.costCenters.find('x')).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('rejects with the signal\'s reason when the caller aborts', async () => {
    const slow = createClient({ baseUrl: service.url, key, fetch: silentFetch });
    const controller = new AbortController();
    const pending = slow.scales.create({ value: 'nunca' }, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(client.scales.list(undefined, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('does not retry a 503 unless asked, and says when to try again', async () => {
    const outage = unavailableThen(1, '2');
    const plain = createClient({ baseUrl: service.url, key, fetch: outage.fetch });
    await expect(plain.scales.list()).rejects.toMatchObject({ status: 503, code: 'STORAGE_UNAVAILABLE', retryAfterSeconds: 2 });
    expect(outage.calls()).toBe(1);
  });

  it('retries a 503 after its Retry-After, telling onRetry, and then answers', async () => {
    const outage = unavailableThen(2, '0');
    const notices: unknown[] = [];
    const patient = createClient({
      baseUrl: service.url,
      key,
      fetch: outage.fetch,
      retry: { attempts: 3, onRetry: ({ attempt, delayMs, error }) => notices.push({ attempt, delayMs, code: error.code }) },
    });
    const created = await patient.scales.create({ value: 'depois da queda' });
    expect(created.value).toBe('depois da queda');
    expect(outage.calls()).toBe(3);
    expect(notices).toEqual([
      { attempt: 1, delayMs: 0, code: 'STORAGE_UNAVAILABLE' },
      { attempt: 2, delayMs: 0, code: 'STORAGE_UNAVAILABLE' },
    ]);
  });

  it('gives up after its attempts, waits no longer than maxDelayMs, and reads an HTTP-date Retry-After', async () => {
    const outage = unavailableThen(10, new Date(Date.now() + 60_000).toUTCString());
    const delays: number[] = [];
    const patient = createClient({ baseUrl: service.url, key, fetch: outage.fetch, retry: { attempts: 2, maxDelayMs: 10, onRetry: ({ delayMs }) => delays.push(delayMs) } });
    const error: unknown = await patient.costCenters.list().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503 });
    expect((error as WorkplanClientError).retryAfterSeconds).toBeGreaterThan(50);
    expect(delays).toEqual([10, 10]);
    expect(outage.calls()).toBe(3);
    await expect(patient.costCenters.list(undefined, { retry: false })).rejects.toMatchObject({ status: 503 });
    expect(outage.calls()).toBe(4);
  });

  it('stops waiting for a retry as soon as the call is aborted', async () => {
    const outage = unavailableThen(10, '30');
    const patient = createClient({ baseUrl: service.url, key, fetch: outage.fetch, retry: { attempts: 5 } });
    const controller = new AbortController();
    // Its Retry-After of 30 s would outlast the test: rejected at all, it was by the abort.
    const pending = patient.scales.list(undefined, { signal: controller.signal });
    setTimeout(() => {
      controller.abort();
    }, 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(outage.calls()).toBe(1);
  });
});

describe('what a browser needs', () => {
  it('a validation failure carries each field\'s issue, to show beside the field', async () => {
    const error: unknown = await client.scales.create({ value: '   ' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect((error as WorkplanClientError).issues).toEqual([{ field: 'value', message: expect.any(String) as string }]);
  });
});
