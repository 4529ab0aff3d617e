import { CursorExpiredError, WorkplanClientError, type Change, type FollowOptions, type WorkplanClient } from '@workplan/client';
import { describe, expect, it } from 'vitest';
import { costCenters, scales } from '../test-support/seed-kinds.js';
import { followLiveChanges } from './live-changes.js';
import { consoleResourcesOf } from './resources.js';

const resources = consoleResourcesOf([scales, costCenters]);

// Where the console starts following the feed, and what it does when following fails,
// against a client whose answers the test gives (the browser tests use the real service).

const at = (second: number) => `2026-11-25T04:00:${String(second).padStart(2, '0')}.000Z`;
const record = (id: string, second: number) => ({ id, createdAt: at(0), updatedAt: at(second) });

function changeOf(id: string): Change {
  const data = { ...record('c', 1), title: id };
  return { id, resource: 'costCenter', recordId: 'c', action: 'update', at: at(1), by: 'Ana', data, previous: data };
}

/** A client whose newest scale and cost center are as given, each with its history, and whose follower runs `follow`. */
function clientWith(follow: (options: FollowOptions) => AsyncGenerator<Change, void>) {
  const followed: FollowOptions[] = [];
  const resource = (id: string, second: number, lastChange: string) => ({
    listPage: () => Promise.resolve({ records: [record(id, second)], next: undefined, hasMore: false, total: undefined }),
    history: (asked: string) => Promise.resolve(asked === id ? [changeOf('1'), changeOf(lastChange)] : []),
  });
  const client = {
    resource: ({ singular }: { singular: string }) => (singular === 'scale' ? resource('s', 5, '40') : resource('c', 9, '42')),
    follow: (options: FollowOptions) => {
      followed.push(options);
      return follow(options);
    },
  } as unknown as WorkplanClient;
  return { client, followed };
}

describe('followLiveChanges', () => {
  it('follows from the last change of the record written last, and tells each change', async () => {
    const { client, followed } = clientWith(async function* () {
      yield changeOf('43');
    });
    // The fake's follower ends after its change: the console starts again only after a pause.
    const stop = new AbortController();
    const told: (string | undefined)[] = [];
    const live = followLiveChanges(client, resources, stop.signal, () => { throw new Error('no refusal expected'); });
    live.listen((change) => told.push(change?.id));
    await live.ready;
    await expect.poll(() => told).toEqual(['43']);
    expect(followed.map((options) => options.after)).toEqual(['42']);
    stop.abort();
  });

  it('starts again at once when its place expired, and tells the lists to read everything again', async () => {
    let reads = 0;
    const { client, followed } = clientWith(async function* () {
      reads += 1;
      if (reads === 1) throw new CursorExpiredError(410, 'CURSOR_EXPIRED', 'Não foi possível retornar as alterações.', 'Expirou.', 'r-1');
      yield changeOf('44');
    });
    const stop = new AbortController();
    const told: (string | undefined)[] = [];
    followLiveChanges(client, resources, stop.signal, () => { throw new Error('no refusal expected'); }).listen((change) => told.push(change?.id));
    await expect.poll(() => told).toEqual([undefined, '44']);
    expect(followed).toHaveLength(2);
    stop.abort();
  });

  it('says the following stopped while the client rides out failures, and resumed when a read succeeds again', async () => {
    const { client } = clientWith(async function* (options) {
      options.onRetry?.({ attempt: 1, delayMs: 500, error: new TypeError('Failed to fetch') });
      options.onRetry?.({ attempt: 2, delayMs: 1000, error: new TypeError('Failed to fetch') });
      options.onResume?.();
      yield changeOf('43');
    });
    const stop = new AbortController();
    const live = followLiveChanges(client, resources, stop.signal, () => { throw new Error('no refusal expected'); });
    const said: boolean[] = [];
    live.watch((following) => said.push(following));
    const told: (string | undefined)[] = [];
    live.listen((change) => told.push(change?.id));
    await expect.poll(() => told).toEqual(['43']);
    // Said once each way, however many failed reads came between.
    expect(said).toEqual([false, true]);
    expect(live.following).toBe(true);
    stop.abort();
  });

  it('gives a refused key to the console, and stops', async () => {
    const refusal = new WorkplanClientError(401, 'UNAUTHORIZED', 'Não foi possível retornar as alterações.', 'Chave recusada.', 'r-2');
    const { client, followed } = clientWith(async function* () {
      yield* [];
      throw refusal;
    });
    const refused: string[] = [];
    followLiveChanges(client, resources, new AbortController().signal, (failure) => refused.push(failure.detail));
    await expect.poll(() => refused).toEqual(['Chave recusada.']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(followed).toHaveLength(1);
  });
});
