import { describe, expect, it } from 'vitest';
import { type HttpAnswer } from './http-client.js';
import {
  contractResources,
  dataOf,
  expectBareProblem,
  expectProblem,
  uniqueText,
  type ContractCall,
  type ContractResource,
  type ServiceUnderTest,
} from './http-contract-data.js';

type Json = Record<string, unknown>;

const [scale] = contractResources;
const listMessage = scale?.messages.list ?? '';
const deleteMessage = scale?.messages.delete ?? '';

function expectForbidden(answer: HttpAnswer, message: string): void {
  expectBareProblem(answer, 403, 'FORBIDDEN', message);
}

/** What the contract asks of a `read` key: every GET and HEAD, and 403 for any write, before its body is read. */
export function describeKeyRoles(service: () => ServiceUnderTest, call: ContractCall, resources: readonly ContractResource[]): void {
  const reading = (c: Parameters<ContractCall>[0]) => call({ ...c, key: service().readKey });

  describe.each(resources)('a read key on /$singular', ({ singular, plural, field, messages }) => {
    const one = (id: string) => `/api/v1/${singular}/${encodeURIComponent(id)}`;

    it('finds and lists, with GET and HEAD', async () => {
      const record = dataOf(await call({ method: 'POST', path: `/api/v1/${singular}`, json: { [field]: uniqueText() } }), 201) as Json;
      expect(dataOf(await reading({ path: one(String(record.id)) }), 200)).toEqual(record);
      for (const path of [one(String(record.id)), `/api/v1/${plural}`, `/api/v1/${plural}/1`, `/api/v1/${plural}/0/1`]) {
        dataOf(await reading({ path }), 200);
        expect((await reading({ method: 'HEAD', path })).status, path).toBe(200);
      }
    });

    it('is answered 403 FORBIDDEN with the operation message on create, update and delete, and nothing changes', async () => {
      const record = dataOf(await call({ method: 'POST', path: `/api/v1/${singular}`, json: { [field]: uniqueText() } }), 201) as Json;
      const refused = uniqueText('recusado');
      expectForbidden(await reading({ method: 'POST', path: `/api/v1/${singular}`, json: { [field]: refused } }), messages.create);
      expectForbidden(await reading({ method: 'PUT', path: one(String(record.id)), json: { [field]: refused } }), messages.update);
      expectForbidden(await reading({ method: 'DELETE', path: one(String(record.id)) }), messages.delete);
      expect(dataOf(await call({ path: one(String(record.id)) }), 200)).toEqual(record);
      const all = dataOf(await call({ path: `/api/v1/${plural}` }), 200) as Json[];
      expect(all.map((r) => r[field])).not.toContain(refused);
    });

    it('is answered 403 before its body is read: malformed, not JSON, or over the size limit', async () => {
      const post = (headers: Record<string, string>, body: string) => reading({ method: 'POST', path: `/api/v1/${singular}`, headers, body });
      expectForbidden(await post({ 'content-type': 'application/json' }, `{"${field}":`), messages.create);
      expectForbidden(await post({ 'content-type': 'text/plain' }, 'x'), messages.create);
      expectForbidden(await post({ 'content-type': 'application/json' }, `{"${field}":"${'a'.repeat(20_000)}"}`), messages.create);
      const put = await reading({ method: 'PUT', path: one('nao-existe'), headers: { 'content-type': 'application/json' }, body: '{' });
      expectForbidden(put, messages.update);
    });
  });

  describe('a read key', () => {
    it('is answered 401 like any other when sent twice, and a wrong key is 401 on a write, never 403', async () => {
      expectProblem(await call({ path: '/api/v1/scales', key: [service().readKey, service().readKey] }), 401, 'UNAUTHORIZED', listMessage);
      expectProblem(await call({ method: 'DELETE', path: '/api/v1/scale/x', key: `${service().readKey}x` }), 401, 'UNAUTHORIZED', deleteMessage);
    });

    it('leaves OPTIONS (no key) and a method the path lacks (checked first) as they were', async () => {
      const options = await reading({ method: 'OPTIONS', path: '/api/v1/scale' });
      expect({ status: options.status, allow: options.headers.allow }).toEqual({ status: 204, allow: 'POST, OPTIONS' });
      expectProblem(await reading({ method: 'PATCH', path: '/api/v1/scale/x' }), 405, 'METHOD_NOT_ALLOWED', 'Método não permitido.');
    });
  });
}
