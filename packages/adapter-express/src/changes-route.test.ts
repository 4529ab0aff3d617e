import { type ChangesRequest, type ReadOptions } from '@workplan/core';
import { openEventStream, send, type HttpAnswer } from '@workplan/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { drainable } from './drain.js';
import { type HttpAppOptions } from './http-app.js';
import { type ChangesFeed } from './resources.js';
import { startMemoryApp, type MemoryApp } from './testing/memory-app.js';

const key = 'changes-test-key-0123456';
let running: MemoryApp | undefined;

async function serve(http: Partial<Omit<HttpAppOptions, 'resources' | 'keys'>> = {}): Promise<MemoryApp> {
  running = await startMemoryApp({ key, http });
  return running;
}

afterEach(async () => {
  await running?.close();
  running = undefined;
});

const create = (baseUrl: string, value: string) =>
  send(baseUrl, { method: 'POST', path: '/api/v1/scale', headers: { key, 'content-type': 'application/json' }, body: JSON.stringify({ value }) });
const changes = (baseUrl: string, query: string) => send(baseUrl, { path: `/api/v1/changes${query}`, headers: { key } });
const dataOf = (answer: HttpAnswer) => (answer.json as { data: { id: string; data: { value: string } }[] }).data;

/** A feed that waits until its read is called off, and tells of the call. */
function waitingFeed(): ChangesFeed & { readonly calledOff: Promise<unknown> } {
  let tell: (reason: unknown) => void = () => undefined;
  const calledOff = new Promise((resolve) => (tell = resolve));
  return {
    calledOff,
    read: (_request: ChangesRequest, options?: ReadOptions) =>
      new Promise((_resolve, reject) => {
        options?.signal?.addEventListener('abort', () => {
          tell(options.signal?.reason);
          reject(new Error('called off', { cause: options.signal?.reason }));
        });
      }),
  };
}

describe('a long poll', () => {
  it('is held past the request deadline for its wait, and answered [] with the same after, not 503', async () => {
    const { baseUrl } = await serve({ requestTimeoutMs: 200 });
    await create(baseUrl, 'um');
    const started = performance.now();
    const answer = await changes(baseUrl, '?after=1&wait=1');
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect({ status: answer.status, data: dataOf(answer), link: answer.headers.link }).toEqual({
      status: 200,
      data: [],
      link: '</api/v1/changes?after=1&wait=1>; rel="next"',
    });
  });

  it('still answers 503 when its storage does not answer within the deadline after the wait', async () => {
    const feed = waitingFeed();
    const { baseUrl } = await serve({ requestTimeoutMs: 200, changes: feed });
    const started = performance.now();
    const answer = await changes(baseUrl, '?wait=1');
    expect(answer.status).toBe(503);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1150);
    await expect(feed.calledOff).resolves.toBeDefined();
  });

  it('stops waiting when its client leaves', async () => {
    const feed = waitingFeed();
    const { baseUrl } = await serve({ changes: feed });
    const url = new URL(baseUrl);
    const request = (await import('node:http')).request({ host: url.hostname, port: url.port, path: '/api/v1/changes?wait=30', headers: { key } });
    request.on('error', () => undefined); // Its own hang-up, on purpose.
    request.end();
    await new Promise((resolve) => setTimeout(resolve, 100));
    request.destroy();
    await expect(feed.calledOff).resolves.toBeInstanceOf(Error);
  });

  it('is answered at once when the server drains: [] with Connection: close, and the drain cuts nothing', async () => {
    const app = await serve();
    const drain = drainable(app.server);
    const polling = changes(app.baseUrl, '?wait=30');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Held for its 30 s, the poll would outlast the test: answered at all, it was answered by the drain.
    const cut = await drain(5000);
    const answer = await polling;
    expect(cut).toEqual({ requests: 0, connections: 0 });
    expect({ status: answer.status, data: dataOf(answer), connection: answer.headers.connection }).toEqual({ status: 200, data: [], connection: 'close' });
  });
});

describe('changes no longer kept', () => {
  it('are 410 CURSOR_EXPIRED with the changes message, for a page, a long poll and a stream; a later after still reads', async () => {
    const { baseUrl, changes: log } = await serve();
    for (const value of ['um', 'dois', 'três']) await create(baseUrl, value);
    await log.prune(new Date(Date.now() + 1000));
    await create(baseUrl, 'quatro');
    for (const query of ['?after=1', '?after=2&wait=5']) {
      const answer = await changes(baseUrl, query);
      expect({ status: answer.status, body: answer.json }).toMatchObject({
        status: 410,
        body: { success: false, message: 'Não foi possível retornar as alterações.', error: { code: 'CURSOR_EXPIRED' } },
      });
    }
    const stream = await openEventStream(baseUrl, '/api/v1/changes', { key, 'last-event-id': '1' });
    expect(stream.status).toBe(410);
    expect(dataOf(await changes(baseUrl, '?after=3')).map((change) => change.data.value)).toEqual(['quatro']);
  });
});

describe('the event stream', () => {
  it('sends each change as an event with its id, goes on with new ones, and says it is alive while idle', async () => {
    const { baseUrl } = await serve({ heartbeatSeconds: 1 });
    await create(baseUrl, 'um');
    await create(baseUrl, 'dois');
    const stream = await openEventStream(baseUrl, '/api/v1/changes?after=1', { key });
    expect({ status: stream.status, type: stream.headers['content-type'], cache: stream.headers['cache-control'] }).toEqual({
      status: 200,
      type: 'text/event-stream; charset=utf-8',
      cache: 'no-cache',
    });
    const [second] = await stream.events(1);
    expect({ id: second?.id, value: (JSON.parse(second?.data ?? '{}') as { data: { value: string } }).data.value }).toEqual({ id: '2', value: 'dois' });
    await create(baseUrl, 'três');
    expect((await stream.events(1)).map((event) => event.id)).toEqual(['3']);
    const before = stream.comments;
    // A comment a second while idle: one comes, however late a busy machine lets it.
    await expect.poll(() => stream.comments - before, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    stream.close();
  });

  it('resumes after Last-Event-ID, over after, and refuses a bad one as JSON before any stream', async () => {
    const { baseUrl } = await serve();
    for (const value of ['um', 'dois', 'três']) await create(baseUrl, value);
    const stream = await openEventStream(baseUrl, '/api/v1/changes?after=0', { key, 'last-event-id': '2' });
    expect((await stream.events(1)).map((event) => event.id)).toEqual(['3']);
    stream.close();
    const refused = await openEventStream(baseUrl, '/api/v1/changes', { key, 'last-event-id': 'x' });
    expect({ status: refused.status, type: refused.headers['content-type'] }).toEqual({ status: 400, type: 'application/json; charset=utf-8' });
    expect(JSON.parse(await refused.text)).toHaveProperty('error.code', 'INVALID_QUERY');
  });

  it('stops reading when its client leaves', async () => {
    const waiting = waitingFeed();
    let reads = 0;
    const feed: ChangesFeed = {
      read: (request, options) => (++reads === 1 ? Promise.resolve({ changes: [], next: '0' }) : waiting.read(request, options)),
    };
    const { baseUrl } = await serve({ changes: feed });
    const stream = await openEventStream(baseUrl, '/api/v1/changes', { key });
    await new Promise((resolve) => setTimeout(resolve, 100));
    stream.close();
    await expect(waiting.calledOff).resolves.toBeInstanceOf(Error);
  });

  it('ends when the server drains, and the drain cuts nothing', async () => {
    const app = await serve();
    const drain = drainable(app.server);
    const stream = await openEventStream(app.baseUrl, '/api/v1/changes', { key });
    // A stream has no end of its own: ended at all, it was ended by the drain.
    const cut = await drain(5000);
    await stream.ended;
    expect(cut).toEqual({ requests: 0, connections: 0 });
  });

  it('refuses, at the start, a heartbeat no wait of the feed can time', async () => {
    for (const heartbeatSeconds of [0, 31, 1.5]) await expect(serve({ heartbeatSeconds })).rejects.toThrow(RangeError);
  });

  it('gives HEAD and a client that prefers JSON a page, not a stream', async () => {
    const { baseUrl } = await serve();
    const head = await send(baseUrl, { method: 'HEAD', path: '/api/v1/changes', headers: { key, accept: 'text/event-stream' } });
    const either = await send(baseUrl, { path: '/api/v1/changes', headers: { key, accept: 'application/json, text/event-stream' } });
    expect([head.headers['content-type'], either.headers['content-type']]).toEqual(['application/json; charset=utf-8', 'application/json; charset=utf-8']);
    expect(either.headers.vary).toBe('Accept');
  });
});

describe('followers held open', () => {
  it('are served a write from one read of the storage, however many streams and long polls wait', async () => {
    const app = await serve();
    await create(app.baseUrl, 'antes');
    const held = 6;
    const waits = vi.spyOn(app.changes, 'waitAfter');
    const streams = await Promise.all(Array.from({ length: held }, () => openEventStream(app.baseUrl, '/api/v1/changes?after=1', { key })));
    // The shared reader waits at the end: a follower that comes there from now on (a poll
    // below, whenever its request is handled) waits with it or, after the write, is served
    // from its read, with no read of its own.
    await vi.waitFor(() => {
      expect(waits).toHaveBeenCalledWith(1, expect.any(Number), expect.anything());
    });
    const polls = Array.from({ length: held }, () => changes(app.baseUrl, '?after=1&wait=10'));
    const reads = vi.spyOn(app.changes, 'read');
    await create(app.baseUrl, 'um');
    const events = await Promise.all(streams.map((stream) => stream.events(1)));
    const answered = await Promise.all(polls);
    for (const stream of streams) stream.close();
    expect({
      events: events.map(([event]) => (JSON.parse(event?.data ?? 'null') as { data: { value: string } }).data.value),
      polls: answered.map((answer) => dataOf(answer).map((change) => change.data.value)),
      reads: reads.mock.calls.length,
    }).toEqual({ events: Array.from({ length: held }, () => 'um'), polls: Array.from({ length: held }, () => ['um']), reads: 1 });
  });
});
