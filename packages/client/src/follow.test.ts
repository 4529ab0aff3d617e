import { afterEach, describe, expect, it } from 'vitest';
import { createClient, CursorExpiredError, type Change, type FollowOptions, type FollowRetry } from './index.js';
import { changesAnswer, failureAnswer, fakeService, scaleChange, type FakeAnswer, type FakeService, type SeenRequest } from './test-support/fake-service.js';

// follow(): the feed as an async iterator over long polls, against a stand-in for the
// service that answers each read as scripted, fails some on purpose, or holds them.

const key = 'follow-test-key-0123456789';
let service: FakeService | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** A client of a service answering the n-th read with `script[n]`, and holding every read after the last one until the test ends. */
async function following(script: readonly FakeAnswer[]) {
  service = await fakeService((_, index) => script[index] ?? { ...changesAnswer([], undefined), holdMs: 60_000 });
  return { client: createClient({ baseUrl: service.url, key }), seen: service.seen };
}

/** The first `count` changes the follower yields, then stops it. */
async function take(changes: AsyncGenerator<Change, void>, count: number): Promise<string[]> {
  const ids: string[] = [];
  for await (const change of changes) {
    ids.push(change.id);
    if (ids.length === count) break;
  }
  return ids;
}

const reads = (seen: readonly SeenRequest[]) => seen.map(({ url }) => [url.searchParams.get('after'), url.searchParams.get('wait')]);

describe('follow()', () => {
  it('yields each change once, in order, reading on after the last with long polls', async () => {
    const { client, seen } = await following([
      changesAnswer([scaleChange(4), scaleChange(5)], '3'),
      changesAnswer([], '5'),
      changesAnswer([scaleChange(6)], '5'),
    ]);
    expect(await take(client.follow({ after: '3' }), 3)).toEqual(['4', '5', '6']);
    expect(reads(seen)).toEqual([['3', '30'], ['5', '30'], ['5', '30']]);
    expect(seen.every((request) => request.key === key)).toBe(true);
  });

  it('says when a read succeeds again after failed ones, the first of them not held, so the caller learns soon that the service is back', async () => {
    const { client, seen } = await following([
      changesAnswer([scaleChange(1)], undefined),
      { hangUp: true },
      failureAnswer(503, 'STORAGE_UNAVAILABLE'),
      changesAnswer([], '1'),
      changesAnswer([scaleChange(2)], '1'),
    ]);
    const told: string[] = [];
    const changes = client.follow({ onRetry: () => told.push('retry'), onResume: () => told.push('resume') });
    expect(await take(changes, 2)).toEqual(['1', '2']);
    expect(told).toEqual(['retry', 'retry', 'resume']);
    expect(reads(seen).map(([, wait]) => wait)).toEqual(['30', '30', '1', '1', '30']);
  });

  it('rides out a cut connection, a 503 and a proxy\'s 502, pausing longer each time, and says so', async () => {
    const { client, seen } = await following([
      changesAnswer([scaleChange(1)], undefined),
      { hangUp: true },
      failureAnswer(503, 'STORAGE_UNAVAILABLE'),
      { status: 502, body: '<html>Bad gateway</html>' },
      changesAnswer([scaleChange(2)], '1'),
    ]);
    const retries: FollowRetry[] = [];
    expect(await take(client.follow({ onRetry: (retry) => retries.push(retry) }), 2)).toEqual(['1', '2']);
    expect(retries.map((retry) => retry.attempt)).toEqual([1, 2, 3]);
    expect(retries[0]?.error).toBeInstanceOf(TypeError);
    expect(retries.slice(1).map((retry) => (retry.error as { status: number }).status)).toEqual([503, 502]);
    // Half of each pause is random; the ceiling doubles with each failure in a row.
    expect(retries.map((retry) => retry.delayMs >= 250 * 2 ** (retry.attempt - 1) && retry.delayMs <= 500 * 2 ** (retry.attempt - 1))).toEqual([true, true, true]);
    expect(reads(seen).map(([after]) => after)).toEqual([null, '1', '1', '1', '1']);
  });

  it('waits as long as a 429\'s Retry-After asks before reading again', async () => {
    const { client, seen } = await following([failureAnswer(429, 'RATE_LIMITED', { 'retry-after': '1' }), changesAnswer([scaleChange(1)], undefined)]);
    const retries: FollowRetry[] = [];
    const started = performance.now();
    expect(await take(client.follow({ onRetry: (retry) => retries.push(retry) }), 1)).toEqual(['1']);
    expect(retries.map((retry) => retry.delayMs)).toEqual([1000]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(seen).toHaveLength(2);
  });

  it('ends without an error when the signal aborts, during a long poll or a pause', async () => {
    const { client, seen } = await following([changesAnswer([scaleChange(1)], undefined)]);
    const controller = new AbortController();
    const ids: string[] = [];
    const done = (async () => {
      for await (const change of client.follow({ signal: controller.signal })) ids.push(change.id);
    })();
    await expect.poll(() => seen.length).toBe(2); // the second read is held by the service
    controller.abort();
    await expect(done).resolves.toBeUndefined();
    expect(ids).toEqual(['1']);

    await service?.close();
    service = await fakeService(() => failureAnswer(503, 'STORAGE_UNAVAILABLE', { 'retry-after': '30' }));
    const pausing = new AbortController();
    const paused = createClient({ baseUrl: service.url, key }).follow({ signal: pausing.signal, onRetry: () => { pausing.abort(); } });
    await expect(paused.next()).resolves.toEqual({ done: true, value: undefined });
  });

  it('throws a CursorExpiredError when the changes after its place are no longer kept, and stops', async () => {
    const { client, seen } = await following([changesAnswer([scaleChange(10)], '9'), failureAnswer(410, 'CURSOR_EXPIRED')]);
    const ids: string[] = [];
    const follow = async (options: FollowOptions) => {
      for await (const change of client.follow(options)) ids.push(change.id);
    };
    await expect(follow({ after: '9' })).rejects.toBeInstanceOf(CursorExpiredError);
    expect(ids).toEqual(['10']);
    expect(seen).toHaveLength(2);
  });

  it('does not spin when empty answers come back at once, as from a server that does not hold long polls', async () => {
    const answering = await fakeService(() => changesAnswer([], '5'));
    service = answering;
    const controller = new AbortController();
    const following = (async () => {
      for await (const change of createClient({ baseUrl: answering.url, key }).follow({ after: '5', signal: controller.signal })) expect(change).toBeUndefined();
    })();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    controller.abort();
    await expect(following).resolves.toBeUndefined();
    expect(answering.seen.length).toBeGreaterThanOrEqual(2);
    expect(answering.seen.length).toBeLessThanOrEqual(3);
  });

  it('does not try again what cannot succeed: a refused key, a bad query', async () => {
    for (const [status, code] of [[401, 'UNAUTHORIZED'], [400, 'INVALID_QUERY']] as const) {
      const { client, seen } = await following([failureAnswer(status, code)]);
      await expect(client.follow().next()).rejects.toMatchObject({ status, code });
      expect(seen).toHaveLength(1);
      await service?.close();
    }
    service = undefined;
  });
});
