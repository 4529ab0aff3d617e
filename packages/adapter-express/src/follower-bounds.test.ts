import { request } from 'node:http';
import { type ChangesRequest, type ReadOptions } from '@workplan/core';
import { expectProblem, openEventStream, send, type EventStream, type HttpAnswer } from '@workplan/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { keyEntryOf } from './api-keys.js';
import { type HttpAppOptions } from './http-app.js';
import { changesDescription, type ChangesFeed } from './resources.js';
import { startMemoryApp, type MemoryApp } from './testing/memory-app.js';

const key = 'bounds-test-key-0123456789';
const other = 'bounds-other-key-012345678';
let running: MemoryApp | undefined;
const opened: EventStream[] = [];

async function serve(http: Partial<Omit<HttpAppOptions, 'resources' | 'keys'>>): Promise<MemoryApp> {
  running = await startMemoryApp({ key, otherKeys: [keyEntryOf(other)], http });
  return running;
}

afterEach(async () => {
  for (const stream of opened.splice(0)) stream.close();
  await running?.close();
  running = undefined;
});

async function stream(baseUrl: string, withKey = key): Promise<EventStream> {
  const held = await openEventStream(baseUrl, '/api/v1/changes', { key: withKey });
  opened.push(held);
  return held;
}

/** The refusal of a stream, read as the JSON answer it is. */
async function refusalOf(held: EventStream): Promise<HttpAnswer> {
  const text = await held.text;
  return { status: held.status, headers: held.headers, text, json: JSON.parse(text) as unknown };
}

const { message } = changesDescription;

describe('bounds on the followers of the changes', () => {
  it('refuses a key its bound+1-th stream at once with 429 TOO_MANY_FOLLOWERS and Retry-After, and admits again once one leaves', async () => {
    const { baseUrl } = await serve({ followerBounds: { perKey: 2, total: 10 } });
    const first = await stream(baseUrl);
    await stream(baseUrl);
    expect(first.status).toBe(200);
    const third = await stream(baseUrl);
    const refused = await refusalOf(third);
    expectProblem(refused, 429, 'TOO_MANY_FOLLOWERS', message);
    expect(refused.headers['retry-after']).toMatch(/^[1-9][0-9]*$/u);
    // Another key is not held back by this one's bound.
    expect((await stream(baseUrl, other)).status).toBe(200);
    first.close();
    await first.ended;
    await expect.poll(async () => {
      const again = await stream(baseUrl);
      return again.status;
    }).toBe(200);
  });

  it('refuses past the total with 503 FOLLOWERS_FULL and Retry-After, across keys, long polls counted too', async () => {
    const refusals: string[] = [];
    const { baseUrl } = await serve({ followerBounds: { perKey: 5, total: 2 }, onFollowerRefused: (bound) => refusals.push(bound) });
    await stream(baseUrl);
    const poll = send(baseUrl, { path: '/api/v1/changes?wait=30', headers: { key: other } });
    poll.catch(() => undefined); // Cut by the server's close should the test fail first.
    await expect.poll(async () => (await refusalOf(await stream(baseUrl, other))).status).toBe(503);
    const refused = await refusalOf(await stream(baseUrl, other));
    expectProblem(refused, 503, 'FOLLOWERS_FULL', message);
    expect(refused.headers['retry-after']).toMatch(/^[1-9][0-9]*$/u);
    const polled = await send(baseUrl, { path: '/api/v1/changes?wait=30', headers: { key } });
    expectProblem(polled, 503, 'FOLLOWERS_FULL', message);
    expect(refusals.every((bound) => bound === 'total') && refusals.length >= 2).toBe(true);
    // A page without `wait` is not held: never bounded.
    expect((await send(baseUrl, { path: '/api/v1/changes', headers: { key } })).status).toBe(200);
    await send(baseUrl, { method: 'POST', path: '/api/v1/scale', headers: { key, 'content-type': 'application/json' }, body: JSON.stringify({ value: 'um' }) });
    expect((await poll).status).toBe(200);
    await expect.poll(async () => (await stream(baseUrl, other)).status).toBe(200);
  });

  it('refuses before anything is read', async () => {
    let reads = 0;
    // A first page at once, then a wait that lasts until the follower is let go.
    const feed: ChangesFeed = {
      read: (request: ChangesRequest, options?: ReadOptions) => {
        reads += 1;
        if (request.wait === undefined) return Promise.resolve({ changes: [], next: '0' });
        return new Promise((_resolve, reject) => {
          options?.signal?.addEventListener('abort', () => {
            reject(new Error('let go'));
          });
        });
      },
    };
    const { baseUrl } = await serve({ followerBounds: { perKey: 1, total: 1 }, changes: feed });
    await stream(baseUrl);
    await expect.poll(() => reads).toBeGreaterThanOrEqual(2);
    const before = reads;
    expect((await refusalOf(await stream(baseUrl))).status).toBe(429);
    expect((await send(baseUrl, { path: '/api/v1/changes?wait=5', headers: { key } })).status).toBe(429);
    expect((await send(baseUrl, { path: '/api/v1/changes?wait=5', headers: { key: other } })).status).toBe(503);
    expect(reads).toBe(before);
  });

  it('tells each follower held from before its first read, and once it is let go', async () => {
    const held: string[] = [];
    // A first read that lasts until the test ends it: the stream is held, its headers not yet sent.
    let endRead: () => void = () => undefined;
    const feed: ChangesFeed = {
      read: (_request: ChangesRequest, options?: ReadOptions) =>
        new Promise((resolve, reject) => {
          endRead = () => {
            resolve({ changes: [], next: '0' });
          };
          options?.signal?.addEventListener('abort', () => {
            reject(new Error('let go'));
          });
        }),
    };
    const { baseUrl } = await serve({ changes: feed, onFollowerHeld: (kind) => (held.push(`+${kind}`), () => held.push(`-${kind}`)) });
    const url = new URL(baseUrl);
    const pending = request({ host: url.hostname, port: url.port, path: '/api/v1/changes', headers: { key, accept: 'text/event-stream' }, agent: false });
    pending.on('error', () => undefined); // Its own hang-up, on purpose.
    pending.end();
    await expect.poll(() => held).toEqual(['+stream']);
    pending.destroy();
    endRead();
    await expect.poll(() => held).toEqual(['+stream', '-stream']);
  });
});
