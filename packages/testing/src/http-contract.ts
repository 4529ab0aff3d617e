import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from './http-client.js';
import {
  contractResources,
  dataOf,
  expectProblem,
  ISO_MILLIS,
  nextLinkOf,
  uniqueText,
  UUID_V7,
  type ContractCall,
  type ContractResource,
  type ServiceUnderTest,
} from './http-contract-data.js';
import { describeHttpEdges } from './http-edges.js';
import { describeChanges } from './http-changes.js';
import { describeEntityTags } from './http-entity-tags.js';
import { describeHistory } from './http-history.js';
import { describeKeyRoles } from './http-roles.js';
import { describeFindingRecords } from './http-finding.js';
import { describeWalksWhileRecordsChange } from './http-finding-walk.js';
import { describeQueryRefusals } from './http-query-refusals.js';

type Json = Record<string, unknown>;

/**
 * The contract's HTTP behaviour, run against a service started by `start` that serves
 * `resources` (the seed's two, as the contract writes them, unless told otherwise).
 */
export function describeHttpContract(name: string, start: () => Promise<ServiceUnderTest>, resources: readonly ContractResource[] = contractResources): void {
  describe(`${name} HTTP contract`, () => {
    let service: ServiceUnderTest;
    beforeAll(async () => {
      service = await start();
    });
    afterAll(async () => {
      await service.close();
    });
    const call: ContractCall = (c) => {
      const headers: Record<string, string | string[]> = { ...(c.headers as Record<string, string>) };
      if (c.key !== null) headers.key = c.key ?? service.key;
      if (c.json !== undefined) headers['content-type'] ??= 'application/json';
      return send(service.baseUrl, { ...c, headers, body: c.json === undefined ? c.body : JSON.stringify(c.json) });
    };

    describe.each(resources)('/$singular', (resource) => {
      const { singular, plural, field, messages } = resource;
      const one = (id: string) => `/api/v1/${singular}/${encodeURIComponent(id)}`;
      const create = async (text = uniqueText()) =>
        dataOf(await call({ method: 'POST', path: `/api/v1/${singular}`, json: { [field]: text } }), 201) as Json;

      it('creates a record: 201, Location, a UUID v7 id and equal ISO timestamps', async () => {
        const text = uniqueText('12x36');
        const answer = await call({ method: 'POST', path: `/api/v1/${singular}`, json: { [field]: `  ${text} ` } });
        const record = dataOf(answer, 201) as Json;
        expect(Object.keys(record)).toEqual(['id', field, 'createdAt', 'updatedAt']);
        expect(record).toMatchObject({ id: expect.stringMatching(UUID_V7) as unknown, [field]: text });
        expect(record.createdAt).toMatch(ISO_MILLIS);
        expect(record.updatedAt).toBe(record.createdAt);
        expect(answer.headers.location).toBe(`/api/v1/${singular}/${String(record.id)}`);
      });

      it('finds a record by id, and answers HEAD with headers only', async () => {
        const record = await create();
        expect(dataOf(await call({ path: one(String(record.id)) }), 200)).toEqual(record);
        const head = await call({ method: 'HEAD', path: one(String(record.id)) });
        expect({ status: head.status, text: head.text }).toEqual({ status: 200, text: '' });
      });

      it('updates a record: new text, later updatedAt, same createdAt; its own value in another case', async () => {
        const record = await create('Turno Noturno');
        const answer = await call({ method: 'PUT', path: one(String(record.id)), json: { ...record, [field]: 'TURNO   noturno' } });
        const updated = dataOf(answer, 200) as Json;
        expect(updated).toMatchObject({ id: record.id, [field]: 'TURNO   noturno', createdAt: record.createdAt });
        expect(Date.parse(String(updated.updatedAt))).toBeGreaterThan(Date.parse(String(record.updatedAt)));
        await call({ method: 'DELETE', path: one(String(record.id)) });
      });

      it('deletes a record: { success: true }, then it is gone', async () => {
        const record = await create();
        const answer = await call({ method: 'DELETE', path: one(String(record.id)) });
        expect({ status: answer.status, body: answer.json }).toEqual({ status: 200, body: { success: true } });
        expectProblem(await call({ path: one(String(record.id)) }), 404, 'NOT_FOUND', messages.find);
        expectProblem(await call({ method: 'DELETE', path: one(String(record.id)) }), 404, 'NOT_FOUND', messages.delete);
      });

      it('lists oldest first and walks every page by following Link rel="next"', async () => {
        const created = [await create(), await create(), await create()];
        const seen: unknown[] = [];
        let path: string | undefined = `/api/v1/${plural}/2`;
        while (path !== undefined) {
          const answer = await call({ path });
          seen.push(...(dataOf(answer, 200) as Json[]).map((r) => r.id));
          path = nextLinkOf(answer);
        }
        expect(seen.filter((id) => created.some((r) => r.id === id))).toEqual(created.map((r) => r.id));
        const all = dataOf(await call({ path: `/api/v1/${plural}` }), 200) as Json[];
        expect(all.map((r) => r.id)).toEqual(seen);
      });

      it('lists with skip and limit, 007 meaning 7, and [] past the end', async () => {
        await create();
        await create();
        const firstTwo = dataOf(await call({ path: `/api/v1/${plural}/0/2` }), 200) as Json[];
        const second = dataOf(await call({ path: `/api/v1/${plural}/001/001` }), 200) as Json[];
        expect(second).toEqual([firstTwo[1]]);
        expect(dataOf(await call({ path: `/api/v1/${plural}/10000000/1` }), 200)).toEqual([]);
      });

      it.each(['-1', 'abc', '1.5', '1e3', '0', ' 1', '99999999999999999999999'])(
        'refuses the limit %j with 400 INVALID_PAGINATION',
        async (limit) => {
          const answer = await call({ path: `/api/v1/${plural}/${encodeURIComponent(limit)}` });
          expectProblem(answer, 400, 'INVALID_PAGINATION', messages.list);
          const withSkip = await call({ path: `/api/v1/${plural}/0/${encodeURIComponent(limit)}` });
          expectProblem(withSkip, 400, 'INVALID_PAGINATION', messages.list);
        },
      );

      it('refuses a limit over the page maximum and a skip over 10,000,000', async () => {
        const overMax = await call({ path: `/api/v1/${plural}/${service.maxPageSize + 1}` });
        expectProblem(overMax, 400, 'INVALID_PAGINATION', messages.list);
        expectProblem(await call({ path: `/api/v1/${plural}/10000001/1` }), 400, 'INVALID_PAGINATION', messages.list);
        expectProblem(await call({ path: `/api/v1/${plural}/-1/1` }), 400, 'INVALID_PAGINATION', messages.list);
      });

      it('answers 409 CONFLICT naming the holder, on create and on update', async () => {
        const holder = await create('Financeiro Geral');
        const clash = await call({ method: 'POST', path: `/api/v1/${singular}`, json: { [field]: ' financeiro  GERAL ' } });
        expectProblem(clash, 409, 'CONFLICT', messages.create);
        expect(clash.json).toHaveProperty('error.existingId', holder.id);
        const other = await create();
        const update = await call({ method: 'PUT', path: one(String(other.id)), json: { [field]: 'FINANCEIRO GERAL' } });
        expectProblem(update, 409, 'CONFLICT', messages.update);
        expect(update.json).toHaveProperty('error.existingId', holder.id);
        await call({ method: 'DELETE', path: one(String(holder.id)) });
      });

      it('gives exactly one 201 to many concurrent creates of one value', async () => {
        const text = uniqueText('concorrente');
        const answers = await Promise.all(
          Array.from({ length: 20 }, () => call({ method: 'POST', path: `/api/v1/${singular}`, json: { [field]: text } })),
        );
        const statuses = answers.map((a) => a.status).sort();
        expect(statuses).toEqual([201, ...Array.from({ length: 19 }, () => 409)]);
      });

      it.each([
        ['a NoSQL operator', { $gt: '' }],
        ['a number', 42],
        ['null', null],
        ['an empty text', ' \u00A0 '],
        ['201 code points', 'x'.repeat(201)],
        ['a control character', 'a\u0007b'],
        ['a missing field', undefined],
      ])('refuses %s as the text with 400 VALIDATION_FAILED and an issue', async (_label, value) => {
        const answer = await call({ method: 'POST', path: `/api/v1/${singular}`, json: { [field]: value } });
        expectProblem(answer, 400, 'VALIDATION_FAILED', messages.create);
        expect(answer.json).toHaveProperty('error.issues', [{ field, message: expect.any(String) as unknown }]);
      });

      it.each([['an array', '[]'], ['a string', '"12x36"'], ['a number', '7'], ['null', 'null']])(
        'refuses %s as the document with 400 VALIDATION_FAILED',
        async (_label, body) => {
          const headers = { 'content-type': 'application/json' };
          expectProblem(await call({ method: 'POST', path: `/api/v1/${singular}`, headers, body }), 400, 'VALIDATION_FAILED', messages.create);
        },
      );

      it('ignores id, timestamps, __proto__ and constructor members a client sends', async () => {
        const body = `{"${field}":"${uniqueText()}","id":"mine","createdAt":"2000-01-01T00:00:00.000Z","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}`;
        const answer = await call({ method: 'POST', path: `/api/v1/${singular}`, headers: { 'content-type': 'application/json' }, body });
        const record = dataOf(answer, 201) as Json;
        expect(record.id).toMatch(UUID_V7);
        expect(record.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
        expect(({} as Json).polluted).toBeUndefined();
      });

      it.each(['00000000-0000-7000-8000-000000000000', 'nao-existe', 'ÇÃO', '%2F', '..', 'a b'])(
        'answers 404 NOT_FOUND for the id %j on find, update and delete',
        async (id) => {
          const path = `/api/v1/${singular}/${id.startsWith('%') ? id : encodeURIComponent(id)}`;
          expectProblem(await call({ path }), 404, 'NOT_FOUND', messages.find);
          expectProblem(await call({ method: 'PUT', path, json: { [field]: uniqueText() } }), 404, 'NOT_FOUND', messages.update);
          expectProblem(await call({ method: 'DELETE', path }), 404, 'NOT_FOUND', messages.delete);
        },
      );

      it('answers 404 for an upper-case spelling of a real id, even with a clashing value', async () => {
        const record = await create();
        const upper = one(String(record.id).toUpperCase());
        expectProblem(await call({ path: upper }), 404, 'NOT_FOUND', messages.find);
        const clash = await call({ method: 'PUT', path: upper, json: { [field]: record[field] } });
        expectProblem(clash, 404, 'NOT_FOUND', messages.update);
      });
    });

    describeHttpEdges(() => service, call, resources);
    describeKeyRoles(() => service, call, resources);
    describeEntityTags(call, resources);
    describeFindingRecords(() => service, call, resources);
    describeWalksWhileRecordsChange(call, resources);
    describeQueryRefusals(call, resources);
    describeHistory(() => service, call, resources);
    describeChanges(() => service, call, resources);
  });
}
