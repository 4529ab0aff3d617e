// The typed client's history, feed and follower against the real service, in-process on the
// memory store (the client's own tests use a stand-in: packages/client/src/*.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Change, type WorkplanClient } from '@workplan/client';
import { MAX_CHANGES_WAIT_SECONDS } from '@workplan/core';
import { parseConfig, startService, type RunningService } from './index.js';

const key = 'client-changes-key-0123456789';
let service: RunningService;
let client: WorkplanClient;

beforeAll(async () => {
  service = await startService(parseConfig({ PORT: '0', HOST: '127.0.0.1', API_KEYS: `${key} name=Folha`, STORAGE: 'memory', LOG_LEVEL: 'silent' }));
  client = createClient({ baseUrl: service.url, key });
});

afterAll(async () => {
  await service.close();
});

/** The id of the last change so far. */
async function lastChangeId(): Promise<string | undefined> {
  return (await everyChange(1000)).at(-1)?.id;
}

/** Every change from the start, following `next` in pages of `limit`. */
async function everyChange(limit: number): Promise<Change[]> {
  const read: Change[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await client.changes({ limit, after });
    read.push(...page.changes);
    if (page.changes.length < limit) return read;
    after = page.next;
  }
}

describe('history', () => {
  it('gives each write of a record, oldest first, by the key\'s name, also after it was deleted', async () => {
    const made = await client.costCenters.create({ title: 'Auditoria' });
    const renamed = await client.costCenters.update(made.id, { title: 'Auditoria interna' });
    await client.costCenters.delete(made.id);
    const history = await client.costCenters.history(made.id);
    expect(history.map(({ action, by, resource, recordId }) => ({ action, by, resource, recordId }))).toEqual(
      ['create', 'update', 'delete'].map((action) => ({ action, by: 'Folha', resource: 'costCenter', recordId: made.id })),
    );
    expect(history.map((change) => [change.previous?.title ?? null, change.data?.title ?? null])).toEqual([
      [null, 'Auditoria'],
      ['Auditoria', 'Auditoria interna'],
      ['Auditoria interna', null],
    ]);
    expect(history[1]?.data).toEqual(renamed);
    expect(history[1]?.at).toBe(renamed.updatedAt);
  });

  it('rejects an id that never existed with NOT_FOUND', async () => {
    await expect(client.scales.history('0193d3c4-0000-7000-8000-00000000dead')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('reads a history longer than a page in pages, each once, and the whole of it', async () => {
    let current = await client.scales.create({ value: 'escala 0' });
    for (let n = 1; n <= 104; n += 1) current = await client.scales.update(current.id, { value: `escala ${String(n)}` });
    const first = await client.scales.historyPage(current.id);
    expect([first.changes.length, first.hasMore]).toEqual([100, true]); // the service's default page, the feed's
    const pages: string[][] = [];
    for await (const page of client.scales.historyPages(current.id, { limit: 40 })) pages.push(page.changes.map((change) => change.data?.value ?? ''));
    expect(pages.map((page) => page.length)).toEqual([40, 40, 25]);
    const values = Array.from({ length: 105 }, (_, n) => `escala ${String(n)}`);
    expect(pages.flat()).toEqual(values);
    expect((await client.scales.history(current.id)).map((change) => change.data?.value)).toEqual(values);
  });
});

describe('the feed', () => {
  it('reads every write once, in commit order, page after page along next', async () => {
    const schedule = await client.scales.create({ value: 'feed 1' });
    await client.scales.update(schedule.id, { value: 'feed 2' });
    const all = await everyChange(1000);
    expect(all.map((change) => change.id)).toEqual([...new Set(all.map((change) => change.id))]);
    const inPagesOfTwo = await everyChange(2);
    expect(inPagesOfTwo).toEqual(all);
    const last = all.at(-1);
    expect(last?.resource === 'scale' ? [last.action, last.previous?.value, last.data?.value] : undefined).toEqual(['update', 'feed 1', 'feed 2']);
    expect(await client.changes({ after: last?.id })).toEqual({ changes: [], next: last?.id });
  });

  it('answers a long poll as soon as a write commits, well before its wait is out', async () => {
    const after = await lastChangeId();
    // The longest wait outlasts the test: answered at all, the poll was answered by the write.
    const waiting = client.changes({ wait: MAX_CHANGES_WAIT_SECONDS, after });
    setTimeout(() => void client.scales.create({ value: 'acordou' }), 200);
    const page = await waiting;
    expect(page.changes.map((change) => change.resource === 'scale' && change.data?.value)).toEqual(['acordou']);
  });

  it('rejects a bad limit with INVALID_QUERY and the changes message', async () => {
    await expect(client.changes({ limit: 0 })).rejects.toMatchObject({ status: 400, code: 'INVALID_QUERY', message: 'Não foi possível retornar as alterações.' });
  });
});

describe('follow()', () => {
  it('yields the writes made while it follows, in order, and ends when its signal aborts', async () => {
    const after = await lastChangeId();
    const controller = new AbortController();
    const seen: string[] = [];
    const following = (async () => {
      for await (const change of client.follow({ signal: controller.signal, wait: 5, after })) {
        seen.push(`${change.action} ${change.resource === 'costCenter' ? (change.data ?? change.previous)?.title : ''}`);
        if (seen.length === 3) controller.abort();
      }
    })();
    const center = await client.costCenters.create({ title: 'Seguido' });
    await client.costCenters.update(center.id, { title: 'Seguido de perto' });
    await client.costCenters.delete(center.id);
    await expect(following).resolves.toBeUndefined();
    expect(seen).toEqual(['create Seguido', 'update Seguido de perto', 'delete Seguido de perto']);
  });
});
