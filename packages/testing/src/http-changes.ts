import { MAX_CHANGES_WAIT_SECONDS } from '@workplan/core';
import { describe, expect, it } from 'vitest';
import { openEventStream } from './event-stream.js';
import { CHANGES_MESSAGE, changesTools, type Json } from './http-changes-tools.js';
import { contractResources, dataOf, expectProblem, nextLinkOf, uniqueText, type ContractCall, type ContractResource, type ServiceUnderTest } from './http-contract-data.js';

const [scale, costCenter] = contractResources;

/** Query strings, written out byte for byte, that neither the feed nor a record's history takes: a bad page. */
export const badPageQueries: readonly (readonly [string, string])[] = [
  ['an after that is no change id', 'after=x'],
  ['a negative after', 'after=-1'],
  ['an after with a leading zero', 'after=01'],
  ['an after with a fraction', 'after=1.5'],
  ['an empty after', 'after='],
  ['an after of 17 digits', `after=${'9'.repeat(17)}`],
  ['limit=0', 'limit=0'],
  ['limit=1001', 'limit=1001'],
  ['a limit that is no number', 'limit=abc'],
  ['a negative limit', 'limit=-1'],
  ['an empty limit', 'limit='],
  ['a limit with a space', 'limit=%2010'],
  ['a limit of many digits', `limit=${'9'.repeat(30)}`],
  ['after twice', 'after=1&after=1'],
  ['limit twice', 'limit=1&limit=2'],
  ['after as an array', 'after[]=1'],
  ['limit as an object', 'limit[a]=1'],
  ['an after that is not UTF-8', 'after=%FF'],
];

/** Query strings, written out byte for byte, that the feed does not take. */
const badQueries: readonly (readonly [string, string])[] = [
  ...badPageQueries,
  ['wait=0', 'wait=0'],
  ['wait=31', 'wait=31'],
  ['a wait with a fraction', 'wait=1.5'],
  ['a wait in milliseconds', 'wait=1000ms'],
  ['wait twice', 'wait=1&wait=1'],
];

/** The contract's revision 4, "Changes": the feed in commit order, its long poll, its event stream and its refusals. */
export function describeChanges(service: () => ServiceUnderTest, call: ContractCall, resources: readonly ContractResource[]): void {
  const { end, since } = changesTools(call);
  const write = async (singular: string, field: string, text = uniqueText()) =>
    dataOf(await call({ method: 'POST', path: `/api/v1/${singular}`, json: { [field]: text } }), 201) as Json;

  describe('/changes', () => {
    it.each(resources)('names the resource of each change: /$singular', async ({ singular, field }) => {
      const start = await end();
      const made = await write(singular, field);
      const [change] = dataOf(await call({ path: `/api/v1/changes?after=${start}&limit=1` }), 200) as Json[];
      expect([change?.resource, change?.recordId, change?.action, change?.data]).toEqual([singular, made.id, 'create', made]);
    });

    it('answers the changes of both resources in commit order, a page at a time, with Link to the next', async () => {
      if (scale === undefined || costCenter === undefined) throw new Error('two resources expected');
      const start = await end();
      const first = await write(scale.singular, scale.field);
      const second = await write(costCenter.singular, costCenter.field);
      const updated = dataOf(await call({ method: 'PUT', path: `/api/v1/${scale.singular}/${String(first.id)}`, json: { [scale.field]: uniqueText() } }), 200) as Json;
      const page = await call({ path: `/api/v1/changes?after=${start}&limit=2` });
      const [a, b] = dataOf(page, 200) as Json[];
      expect([a?.resource, a?.recordId, a?.action, a?.data]).toEqual([scale.singular, first.id, 'create', first]);
      expect([b?.resource, b?.recordId, b?.action, b?.data]).toEqual([costCenter.singular, second.id, 'create', second]);
      expect(nextLinkOf(page)).toBe(`/api/v1/changes?after=${String(b?.id)}&limit=2`);
      const rest = await call({ path: nextLinkOf(page) ?? '' });
      const [c] = dataOf(rest, 200) as Json[];
      expect([c?.action, c?.data, c?.previous]).toEqual(['update', updated, first]);
      expect((dataOf(rest, 200) as Json[]).length).toBe(1);
      const last = await call({ path: nextLinkOf(rest) ?? '' });
      expect(dataOf(last, 200)).toEqual([]);
      // An empty page reads on from where it was asked.
      expect(nextLinkOf(last)).toBe(`/api/v1/changes?after=${String(c?.id)}&limit=2`);
      const numbers = [start, a?.id, b?.id, c?.id].map(Number);
      expect(numbers).toEqual([...numbers].sort((x, y) => x - y));
      expect(new Set(numbers).size).toBe(4);
    });

    it('reads from the start without after, 100 at most by default, and takes a read key', async () => {
      await write(scale?.singular ?? '', scale?.field ?? '');
      const answer = await call({ path: '/api/v1/changes', key: service().readKey });
      const page = dataOf(answer, 200) as Json[];
      expect(page.length).toBeGreaterThan(0);
      expect(page.length).toBeLessThanOrEqual(100);
      expect(page[0]?.id).toBe((await since('0'))[0]?.id);
      expect(nextLinkOf(answer)).toBe(`/api/v1/changes?after=${String(page.at(-1)?.id)}`);
    });

    it('holds a wait until a write lands, and answers [] when none does in time', async () => {
      const start = await end();
      // The longest wait outlasts the test: answered at all, the poll was answered by the write.
      const waiting = call({ path: `/api/v1/changes?after=${start}&wait=${String(MAX_CHANGES_WAIT_SECONDS)}` });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const made = await write(costCenter?.singular ?? '', costCenter?.field ?? '');
      const answer = await waiting;
      expect((dataOf(answer, 200) as Json[]).map((change) => change.recordId)).toEqual([made.id]);
      const after = String((dataOf(answer, 200) as Json[])[0]?.id);
      const quiet = Date.now();
      const nothing = await call({ path: `/api/v1/changes?after=${after}&wait=1` });
      expect(dataOf(nothing, 200)).toEqual([]);
      expect(Date.now() - quiet).toBeGreaterThanOrEqual(900);
      expect(nextLinkOf(nothing)).toBe(`/api/v1/changes?after=${after}&wait=1`);
    });

    it('streams the same changes as text/event-stream, resumed after Last-Event-ID, and goes on with new ones', async () => {
      const start = await end();
      await write(scale?.singular ?? '', scale?.field ?? '');
      await write(scale?.singular ?? '', scale?.field ?? '');
      const page = await since(start);
      const { baseUrl, key } = service();
      const stream = await openEventStream(baseUrl, '/api/v1/changes?after=0', { key, 'last-event-id': String(page[0]?.id) });
      try {
        expect([stream.status, stream.headers['content-type']]).toEqual([200, 'text/event-stream; charset=utf-8']);
        const [resumed] = await stream.events(1);
        expect({ id: resumed?.id, change: JSON.parse(resumed?.data ?? 'null') as unknown }).toEqual({ id: page[1]?.id, change: page[1] });
        const made = await write(costCenter?.singular ?? '', costCenter?.field ?? '');
        const [next] = await stream.events(1);
        expect((JSON.parse(next?.data ?? 'null') as Json).recordId).toBe(made.id);
        expect(Number(next?.id)).toBeGreaterThan(Number(resumed?.id));
      } finally {
        stream.close();
      }
    });

    it('asks for a key, answers OPTIONS, and 405 for a write', async () => {
      expectProblem(await call({ path: '/api/v1/changes', key: null }), 401, 'UNAUTHORIZED', CHANGES_MESSAGE);
      const options = await call({ method: 'OPTIONS', path: '/api/v1/changes', key: null });
      expect({ status: options.status, allow: options.headers.allow }).toEqual({ status: 204, allow: 'GET, HEAD, OPTIONS' });
      expectProblem(await call({ method: 'POST', path: '/api/v1/changes', json: {} }), 405, 'METHOD_NOT_ALLOWED', 'Método não permitido.');
    });

    it.each(badQueries)('refuses %s with 400 INVALID_QUERY and the changes message', async (_label, query) => {
      expectProblem(await call({ path: `/api/v1/changes?${query}` }), 400, 'INVALID_QUERY', CHANGES_MESSAGE);
    });

    it.each(badQueries)('refuses %s with 400 INVALID_QUERY on a stream too, before it begins', async (_label, query) => {
      const { baseUrl, key } = service();
      const stream = await openEventStream(baseUrl, `/api/v1/changes?${query}`, { key });
      expect([stream.status, stream.headers['content-type']]).toEqual([400, 'application/json; charset=utf-8']);
      expect(JSON.parse(await stream.text)).toMatchObject({ message: CHANGES_MESSAGE, error: { code: 'INVALID_QUERY' } });
    });

    it.each([
      ['text/event-stream', 'text/event-stream'],
      ['text/event-stream; charset=utf-8', 'text/event-stream'],
      ['application/json;q=0.5, text/event-stream', 'text/event-stream'],
      ['text/*, application/json;q=0.9', 'text/event-stream'],
      ['application/json', 'application/json'],
      ['text/event-stream, application/json', 'application/json'],
      ['application/json, text/event-stream', 'application/json'],
      ['text/event-stream;q=0.9, application/json;q=0.9', 'application/json'],
      ['text/event-stream, */*', 'application/json'],
      ['*/*', 'application/json'],
      ['text/event-stream;q=0.5, application/json', 'application/json'],
    ])('answers Accept: %s with %s', async (accept, type) => {
      const { baseUrl, key } = service();
      const answer = await openEventStream(baseUrl, '/api/v1/changes?limit=1', { key, accept });
      try {
        expect([answer.status, answer.headers['content-type']]).toEqual([200, `${type}; charset=utf-8`]);
      } finally {
        answer.close();
      }
    });

    it('refuses a Last-Event-ID that is no change id with 400 INVALID_QUERY, before any stream', async () => {
      const { baseUrl, key } = service();
      const stream = await openEventStream(baseUrl, '/api/v1/changes', { key, 'last-event-id': 'abc' });
      expect([stream.status, stream.headers['content-type']]).toEqual([400, 'application/json; charset=utf-8']);
      expect(JSON.parse(await stream.text)).toMatchObject({ message: CHANGES_MESSAGE, error: { code: 'INVALID_QUERY' } });
    });
  });
}
