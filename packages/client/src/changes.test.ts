import { afterEach, describe, expect, it } from 'vitest';
import { createClient, CursorExpiredError, WorkplanClientError } from './index.js';
import { changesAnswer, failureAnswer, fakeService, scaleChange, type FakeAnswer, type FakeService } from './test-support/fake-service.js';

// The feed and a record's history as the client reads them, against a stand-in for the
// service: what it asks for, and what it makes of the answers (the contract's revision 4).
// The same against the real service: packages/app/src/client-changes.test.ts.

const key = 'changes-test-key-0123456789';
let service: FakeService | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function clientAnswering(answer: (request: { url: URL }, index: number) => FakeAnswer, timeoutMs?: number) {
  service = await fakeService(answer);
  return { client: createClient({ baseUrl: service.url, key, ...(timeoutMs === undefined ? {} : { timeoutMs }) }), seen: service.seen };
}

describe('changes()', () => {
  it('asks for the changes after a cursor, with its key, and reads on from the service\'s next link', async () => {
    const { client, seen } = await clientAnswering(() => changesAnswer([scaleChange(8), scaleChange(9)], '7'));
    const page = await client.changes({ after: '7', limit: 2 });
    expect(page.changes.map((change) => change.id)).toEqual(['8', '9']);
    expect(page.next).toBe('9');
    const change = page.changes[0];
    expect(change?.resource === 'scale' ? change.data?.value : undefined).toBe('turno 8');
    expect(seen.map(({ url }) => url.pathname + url.search)).toEqual(['/api/v1/changes?after=7&limit=2']);
    expect(seen[0]?.key).toBe(key);
  });

  it('reads from the start without after, and keeps its place when nothing followed', async () => {
    const { client, seen } = await clientAnswering((_, index) => (index === 0 ? changesAnswer([], undefined) : { body: { success: true, data: [] } }));
    expect(await client.changes()).toEqual({ changes: [], next: '0' });
    // Without a Link (a proxy that drops it, say) an empty page reads on from where it was.
    expect(await client.changes({ after: '12', wait: 1 })).toEqual({ changes: [], next: '12' });
    expect(seen.map(({ url }) => url.search)).toEqual(['', '?after=12&wait=1']);
  });

  it('gives a long poll its wait on top of the client\'s time limit', async () => {
    const { client } = await clientAnswering(() => ({ ...changesAnswer([scaleChange(1)], undefined), holdMs: 600 }), 300);
    await expect(client.changes({ wait: 1 })).resolves.toMatchObject({ next: '1' });
    await expect(client.changes()).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('rejects a cursor older than what the service keeps with a CursorExpiredError, a WorkplanClientError still', async () => {
    const { client } = await clientAnswering(() => failureAnswer(410, 'CURSOR_EXPIRED'));
    const read = client.changes({ after: '1' });
    await expect(read).rejects.toBeInstanceOf(CursorExpiredError);
    await expect(read).rejects.toBeInstanceOf(WorkplanClientError);
    await expect(read).rejects.toMatchObject({ status: 410, code: 'CURSOR_EXPIRED', message: 'Não foi possível retornar as alterações.' });
  });

  it('rejects other failures with a plain WorkplanClientError', async () => {
    const { client } = await clientAnswering(() => failureAnswer(400, 'INVALID_QUERY'));
    const read = client.changes({ after: 'x' });
    await expect(read).rejects.toMatchObject({ status: 400, code: 'INVALID_QUERY' });
    await expect(read).rejects.not.toBeInstanceOf(CursorExpiredError);
  });
});

describe('history()', () => {
  it('reads a record\'s changes, oldest first, from its history path', async () => {
    const created = scaleChange(3);
    const updated = scaleChange(5, { action: 'update', previous: created.data });
    const { client, seen } = await clientAnswering(() => ({ body: { success: true, data: [created, updated] } }));
    const history = await client.scales.history('a/b');
    expect(history.map((change) => [change.action, change.data?.value, change.previous?.value ?? null])).toEqual([
      ['create', 'turno 3', null],
      ['update', 'turno 5', 'turno 3'],
    ]);
    await client.costCenters.history('c');
    expect(seen.map(({ url }) => url.pathname)).toEqual(['/api/v1/scale/a%2Fb/history', '/api/v1/costCenter/c/history']);
  });

  it('reads every page of a long history, following the service\'s next link to the last page', async () => {
    const pages = [
      { body: { success: true, data: [scaleChange(1), scaleChange(4)] }, headers: { link: '</api/v1/scale/r/history?after=4&limit=1000>; rel="next"' } },
      { body: { success: true, data: [scaleChange(9)] } },
    ];
    const { client, seen } = await clientAnswering((_, index) => pages[index] ?? failureAnswer(500, 'INTERNAL'));
    expect((await client.scales.history('r')).map((change) => change.id)).toEqual(['1', '4', '9']);
    expect(seen.map(({ url }) => url.pathname + url.search)).toEqual(['/api/v1/scale/r/history?limit=1000', '/api/v1/scale/r/history?after=4&limit=1000']);
  });
});

describe('historyPage() and historyPages()', () => {
  const linked = (ids: readonly number[], next?: string): FakeAnswer => ({
    body: { success: true, data: ids.map((id) => scaleChange(id)) },
    ...(next === undefined ? {} : { headers: { link: `<${next}>; rel="next"` } }),
  });

  it('asks for one page after a change, and gives the next page the Link names, or none on the last', async () => {
    const answers = [linked([8, 9], '/api/v1/scale/r/history?after=9&limit=2'), linked([12])];
    const { client, seen } = await clientAnswering((_, index) => answers[index] ?? failureAnswer(500, 'INTERNAL'));
    const first = await client.scales.historyPage('r', { after: '7', limit: 2 });
    expect([first.changes.map((change) => change.id), first.next, first.hasMore]).toEqual([['8', '9'], { after: '9', limit: 2 }, true]);
    const last = await client.scales.historyPage('r', first.next);
    expect([last.changes.map((change) => change.id), last.next, last.hasMore]).toEqual([['12'], undefined, false]);
    expect(seen.map(({ url }) => url.pathname + url.search)).toEqual(['/api/v1/scale/r/history?after=7&limit=2', '/api/v1/scale/r/history?after=9&limit=2']);
  });

  it('walks every page from the first, as an async iterator, and a Link without limit keeps none', async () => {
    const answers = [linked([1], '/api/v1/costCenter/c/history?after=1'), linked([2], '/api/v1/costCenter/c/history?after=2'), linked([3])];
    const { client, seen } = await clientAnswering((_, index) => answers[index] ?? failureAnswer(500, 'INTERNAL'));
    const walked: string[][] = [];
    for await (const page of client.costCenters.historyPages('c')) walked.push(page.changes.map((change) => change.id));
    expect(walked).toEqual([['1'], ['2'], ['3']]);
    expect(seen.map(({ url }) => url.search)).toEqual(['', '?after=1', '?after=2']);
  });

  it('rejects a page of a history behind what the service keeps with a CursorExpiredError', async () => {
    const { client } = await clientAnswering(() => failureAnswer(410, 'CURSOR_EXPIRED'));
    await expect(client.scales.historyPage('r', { after: '1' })).rejects.toBeInstanceOf(CursorExpiredError);
  });

  it('rejects an id that never existed with NOT_FOUND', async () => {
    const { client } = await clientAnswering(() => failureAnswer(404, 'NOT_FOUND'));
    await expect(client.costCenters.history('nunca')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
