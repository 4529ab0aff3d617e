import { describe, expect, it } from 'vitest';
import { badPageQueries } from './http-changes.js';
import { changesTools, nameOfUnnamedKey, type Json } from './http-changes-tools.js';
import { dataOf, expectProblem, nextLinkOf, uniqueText, type ContractCall, type ContractResource, type ServiceUnderTest } from './http-contract-data.js';

const MISSING_ID = '00000000-0000-7000-8000-000000000000';

/** The contract's revision 4, "History": every successful write kept, in order, with who, when, after and before; none for a refused one; in pages as the feed. */
export function describeHistory(service: () => ServiceUnderTest, call: ContractCall, resources: readonly ContractResource[]): void {
  const { end, since, history } = changesTools(call);

  describe.each(resources)('history of /$singular', ({ singular, field, messages }) => {
    const one = (id: string) => `/api/v1/${singular}/${encodeURIComponent(id)}`;
    const create = async (text = uniqueText()) => dataOf(await call({ method: 'POST', path: `/api/v1/${singular}`, json: { [field]: text } }), 201) as Json;

    it('keeps the create, update and delete of a record, oldest first, with by, at, data and previous; also once it is gone', async () => {
      const created = await create();
      const id = String(created.id);
      const updated = dataOf(await call({ method: 'PUT', path: one(id), json: { [field]: uniqueText() } }), 200) as Json;
      expect((await call({ method: 'DELETE', path: one(id) })).status).toBe(200);
      const changes = await history(singular, id);
      const by = nameOfUnnamedKey(service().key);
      expect(changes).toEqual([
        { id: expect.any(String) as unknown, resource: singular, recordId: id, action: 'create', at: created.updatedAt, by, data: created, previous: null },
        { id: expect.any(String) as unknown, resource: singular, recordId: id, action: 'update', at: updated.updatedAt, by, data: updated, previous: created },
        { id: expect.any(String) as unknown, resource: singular, recordId: id, action: 'delete', at: expect.any(String) as unknown, by, data: null, previous: updated },
      ]);
      for (const change of changes) expect(Object.keys(change)).toEqual(['id', 'resource', 'recordId', 'action', 'at', 'by', 'data', 'previous']);
      const numbers = changes.map((change) => Number(change.id));
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      expect(Date.parse(String(changes[2]?.at))).toBeGreaterThan(Date.parse(String(updated.updatedAt)));
      expectProblem(await call({ path: one(id) }), 404, 'NOT_FOUND', messages.find);
    });

    /** A record created, then updated `updates` times, each time after a write of another record. */
    const recordWith = async (updates: number): Promise<string> => {
      const id = String((await create()).id);
      for (let n = 0; n < updates; n += 1) {
        await create();
        dataOf(await call({ method: 'PUT', path: one(id), json: { [field]: uniqueText() } }), 200);
      }
      return id;
    };

    it('answers in pages of limit, oldest first, each with Link to the next while more follow, the last without', async () => {
      const id = await recordWith(4);
      const first = await call({ path: `${one(id)}/history?limit=2` });
      const [a, b] = dataOf(first, 200) as Json[];
      expect([a?.action, b?.action]).toEqual(['create', 'update']);
      expect(first.headers.link).toBe(`</api/v1/${singular}/${id}/history?after=${String(b?.id)}&limit=2>; rel="next"`);
      const second = await call({ path: nextLinkOf(first) ?? '' });
      const third = await call({ path: nextLinkOf(second) ?? '' });
      expect((dataOf(second, 200) as Json[]).length).toBe(2);
      expect(dataOf(third, 200) as Json[]).toHaveLength(1);
      expect(third.headers.link).toBeUndefined();
      const walked = [first, second, third].flatMap((answer) => dataOf(answer, 200) as Json[]);
      expect(walked.map((change) => change.recordId)).toEqual([id, id, id, id, id]);
      const numbers = walked.map((change) => Number(change.id));
      expect(numbers).toEqual([...numbers].sort((x, y) => x - y));
      expect(new Set(numbers).size).toBe(5);
      // After a change that is not the record's: the page starts at its next one.
      const between = await call({ path: `${one(id)}/history?after=${String(Number(b?.id) + 1)}&limit=1` });
      expect(dataOf(between, 200)).toEqual([walked[2]]);
      // HEAD carries the same Link; a page that ends at the last change has none; past it, [].
      const head = await call({ method: 'HEAD', path: `${one(id)}/history?limit=2` });
      expect([head.status, head.headers.link]).toEqual([200, first.headers.link]);
      expect((await call({ path: `${one(id)}/history?limit=5` })).headers.link).toBeUndefined();
      const past = await call({ path: `${one(id)}/history?after=${String(walked[4]?.id)}` });
      expect([dataOf(past, 200), past.headers.link]).toEqual([[], undefined]);
    });

    // The feed's default page (the contract: the same default as /changes).
    it('answers 100 changes at most without limit, and its Link keeps no limit', { timeout: 120_000 }, async () => {
      const id = await recordWith(100);
      const answer = await call({ path: `${one(id)}/history`, key: service().readKey });
      const page = dataOf(answer, 200) as Json[];
      expect(page).toHaveLength(100);
      expect(nextLinkOf(answer)).toBe(`/api/v1/${singular}/${id}/history?after=${String(page.at(-1)?.id)}`);
      const rest = await call({ path: nextLinkOf(answer) ?? '' });
      expect((dataOf(rest, 200) as Json[]).map((change) => change.action)).toEqual(['update']);
      expect(dataOf(await call({ path: `${one(id)}/history?limit=1000` }), 200) as Json[]).toHaveLength(101);
    });

    it.each(badPageQueries)('refuses %s with 400 INVALID_QUERY and the find message', async (_label, query) => {
      const id = await recordWith(0);
      expectProblem(await call({ path: `${one(id)}/history?${query}` }), 400, 'INVALID_QUERY', messages.find);
    });

    it('ignores a wait and other parameters, and answers 404 for an id that never was from any after', async () => {
      const id = await recordWith(0);
      expect(dataOf(await call({ path: `${one(id)}/history?wait=abc&x=1` }), 200) as Json[]).toHaveLength(1);
      expectProblem(await call({ path: `${one(MISSING_ID)}/history?after=1&limit=5` }), 404, 'NOT_FOUND', messages.find);
    });

    it('names the key that wrote, and answers a read key', async () => {
      const created = await create();
      const answer = await call({ path: `${one(String(created.id))}/history`, key: service().readKey });
      expect((dataOf(answer, 200) as Json[]).map((change) => change.by)).toEqual([nameOfUnnamedKey(service().key)]);
    });

    it.each([MISSING_ID, 'nao-existe', 'ÇÃO'])('answers 404 NOT_FOUND with the find message for the id %j, which never was', async (id) => {
      expectProblem(await call({ path: `${one(id)}/history` }), 404, 'NOT_FOUND', messages.find);
    });

    it('asks for a key, and answers OPTIONS and 405 as any path does', async () => {
      expectProblem(await call({ path: `${one(MISSING_ID)}/history`, key: null }), 401, 'UNAUTHORIZED', messages.find);
      const options = await call({ method: 'OPTIONS', path: `${one(MISSING_ID)}/history`, key: null });
      expect({ status: options.status, allow: options.headers.allow }).toEqual({ status: 204, allow: 'GET, HEAD, OPTIONS' });
      expectProblem(await call({ method: 'POST', path: `${one(MISSING_ID)}/history`, json: {} }), 405, 'METHOD_NOT_ALLOWED', 'Método não permitido.');
    });

    it('records nothing for a write refused with 403, 409, 412, 404 or 400', async () => {
      const holder = await create();
      const other = await create();
      const otherId = String(other.id);
      const stale = '"stale"';
      const before = await end();
      const refusals = [
        [403, await call({ method: 'PUT', path: one(otherId), json: { [field]: uniqueText() }, key: service().readKey })],
        [403, await call({ method: 'DELETE', path: one(otherId), key: service().readKey })],
        [403, await call({ method: 'POST', path: `/api/v1/${singular}`, json: { [field]: uniqueText() }, key: service().readKey })],
        [409, await call({ method: 'POST', path: `/api/v1/${singular}`, json: { [field]: holder[field] } })],
        [409, await call({ method: 'PUT', path: one(otherId), json: { [field]: holder[field] } })],
        [412, await call({ method: 'PUT', path: one(otherId), json: { [field]: uniqueText() }, headers: { 'if-match': stale } })],
        [412, await call({ method: 'DELETE', path: one(otherId), headers: { 'if-match': stale } })],
        [404, await call({ method: 'PUT', path: one(MISSING_ID), json: { [field]: uniqueText() } })],
        [404, await call({ method: 'DELETE', path: one(MISSING_ID) })],
        [400, await call({ method: 'PUT', path: one(otherId), json: { [field]: ' ' } })],
      ] as const;
      expect(refusals.map(([status, answer]) => [status, answer.status])).toEqual(refusals.map(([status]) => [status, status]));
      expect(await since(before)).toEqual([]);
      expect((await history(singular, otherId)).map((change) => change.action)).toEqual(['create']);
    });
  });
}
