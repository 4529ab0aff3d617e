import { type ChangesPage } from '@workplan/core';
import { openEventStream, send } from '@workplan/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { keyEntryOf } from './api-keys.js';
import { type ChangesFeed } from './resources.js';
import { startMemoryApp, type MemoryApp, type MemoryAppOptions } from './testing/memory-app.js';

const kept = 'kept-write-key-0123456';
const revoked = 'revoked-read-key-01234';
const changesMessage = 'Não foi possível retornar as alterações.';
const unauthorized = { code: 'UNAUTHORIZED', detail: 'Chave de API ausente ou inválida.' };

let running: MemoryApp | undefined;
/** Followers the app holds open now: a test replaces the keys once its followers are held, not after a guessed delay. */
let held = { count: 0 };
const heldFollowers = (count: number) => expect.poll(() => held.count).toBe(count);

async function serve(changes?: ChangesFeed, http: MemoryAppOptions['http'] = {}): Promise<MemoryApp> {
  // Each app counts its own: the last test's followers may still be let go as this one starts.
  const counted = (held = { count: 0 });
  running = await startMemoryApp({
    key: kept,
    otherKeys: [keyEntryOf(revoked, { name: 'Folha', role: 'read' })],
    http: {
      ...http,
      ...(changes === undefined ? {} : { changes }),
      onFollowerHeld: () => {
        counted.count += 1;
        return () => {
          counted.count -= 1;
        };
      },
    },
  });
  return running;
}

afterEach(async () => {
  await running?.close();
  running = undefined;
});

const create = (baseUrl: string, value: string) =>
  send(baseUrl, { method: 'POST', path: '/api/v1/scale', headers: { key: kept, 'content-type': 'application/json' }, body: JSON.stringify({ value }) });
const longPoll = (baseUrl: string, key: string) => send(baseUrl, { path: '/api/v1/changes?wait=30', headers: { key } });
/** What the key file would hold once `revoked` is taken out of it. */
const withoutRevoked = [keyEntryOf(kept)];

describe('a key taken out of the keys', () => {
  it('refuses with 401 a long poll whose key went while its rate limit was counted', async () => {
    // The reload lands after the key was identified and before the poll is held.
    let reloadDuringCount = (): void => undefined;
    const app = await serve(undefined, {
      rateLimitPerMinute: 1000,
      hitCounter: {
        hit: async () => {
          reloadDuringCount();
          return 1;
        },
      },
    });
    reloadDuringCount = () => {
      app.keys.replace(withoutRevoked);
    };
    const answer = await longPoll(app.baseUrl, revoked);
    expect({ status: answer.status, body: answer.json }).toEqual({
      status: 401,
      body: { success: false, message: changesMessage, error: { ...unauthorized, requestId: answer.headers['x-request-id'] } },
    });
  });

  it('ends its long poll at once with 401 in the envelope; a kept key\'s poll goes on and gets the next change', async () => {
    const app = await serve();
    const refused = longPoll(app.baseUrl, revoked);
    const waiting = longPoll(app.baseUrl, kept);
    await heldFollowers(2);
    app.keys.replace(withoutRevoked);
    const answer = await refused;
    expect({ status: answer.status, body: answer.json }).toEqual({
      status: 401,
      body: { success: false, message: changesMessage, error: { ...unauthorized, requestId: answer.headers['x-request-id'] } },
    });
    await create(app.baseUrl, 'depois');
    const page = await waiting;
    expect({ status: page.status, values: (page.json as { data: { data: { value: string } }[] }).data.map((change) => change.data.value) }).toEqual({
      status: 200,
      values: ['depois'],
    });
  });

  it('closes its event stream after an event saying why, and sends it nothing more; a kept key\'s stream goes on', async () => {
    const app = await serve();
    await create(app.baseUrl, 'antes');
    const refused = await openEventStream(app.baseUrl, '/api/v1/changes', { key: revoked });
    const going = await openEventStream(app.baseUrl, '/api/v1/changes', { key: kept });
    expect((await refused.events(1)).map((event) => event.id)).toEqual(['1']);
    expect((await going.events(1)).map((event) => event.id)).toEqual(['1']);
    app.keys.replace(withoutRevoked);
    const [why] = await refused.events(1);
    await refused.ended;
    expect(why?.event).toBe('problem');
    expect(why?.id).toBeUndefined();
    expect(JSON.parse(why?.data ?? '{}')).toEqual({
      success: false,
      message: changesMessage,
      error: { ...unauthorized, requestId: refused.headers['x-request-id'] },
    });
    await create(app.baseUrl, 'depois');
    expect((await going.events(1)).map((event) => event.id)).toEqual(['2']);
    expect(await refused.text).not.toContain('depois');
    going.close();
  });

  it('keeps the streams and polls of a key still there, under a new name or role', async () => {
    const app = await serve();
    const stream = await openEventStream(app.baseUrl, '/api/v1/changes', { key: revoked });
    const poll = longPoll(app.baseUrl, revoked);
    await heldFollowers(2);
    app.keys.replace([...withoutRevoked, keyEntryOf(revoked, { name: 'Folha-2', role: 'write' })]);
    await create(app.baseUrl, 'depois');
    expect((await poll).status).toBe(200);
    expect((await stream.events(1)).map((event) => event.id)).toEqual(['1']);
    stream.close();
  });

  it('refuses with 401, as JSON, a stream whose key goes while its first page is read', async () => {
    let release: (page: ChangesPage) => void = () => undefined;
    const firstPage = new Promise<ChangesPage>((resolve) => (release = resolve));
    let reading: () => void = () => undefined;
    const read = new Promise<void>((resolve) => (reading = resolve));
    const app = await serve({
      read: () => {
        reading();
        return firstPage;
      },
    });
    const opening = openEventStream(app.baseUrl, '/api/v1/changes', { key: revoked });
    await read;
    app.keys.replace(withoutRevoked);
    release({ changes: [], next: '0' });
    const refused = await opening;
    expect({ status: refused.status, type: refused.headers['content-type'] }).toEqual({ status: 401, type: 'application/json; charset=utf-8' });
    expect(JSON.parse(await refused.text)).toMatchObject({ message: changesMessage, error: unauthorized });
  });
});
