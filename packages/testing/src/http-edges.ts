import { describe, expect, it } from 'vitest';
import { sendRaw } from './http-client.js';
import {
  contractResources,
  dataOf,
  expectCommonHeaders,
  expectProblem,
  uniqueText,
  type ContractCall,
  type ContractResource,
  type ServiceUnderTest,
} from './http-contract-data.js';

const [scale] = contractResources;
const createMessage = scale?.messages.create ?? '';
const findMessage = scale?.messages.find ?? '';
const listMessage = scale?.messages.list ?? '';

/** What the contract asks of every request, whatever the resource: keys, media, size, routes. */
export function describeHttpEdges(service: () => ServiceUnderTest, call: ContractCall, resources: readonly ContractResource[]): void {
  const post = (headers: Record<string, string>, body: string | Buffer, key?: string | null) =>
    call({ method: 'POST', path: '/api/v1/scale', headers, body, ...(key === undefined ? {} : { key }) });

  describe('keys', () => {
    it.each([
      ['missing', null],
      ['empty', ''],
      ['wrong', 'x'.repeat(32)],
    ])('answers a %s KEY with 401 and the operation message, learning nothing else', async (_label, key) => {
      const answer = await call({ method: 'POST', path: '/api/v1/scale', key, headers: { 'content-type': 'text/plain' }, body: '{' });
      expectProblem(answer, 401, 'UNAUTHORIZED', createMessage);
      expect(answer.headers['www-authenticate']).toBeUndefined();
      expectProblem(await call({ path: '/api/v1/scales/abc', key }), 401, 'UNAUTHORIZED', listMessage);
    });

    it('answers a repeated KEY header with 401, even when both are right', async () => {
      const answer = await call({ path: '/api/v1/scale/x', key: [service().key, service().key] });
      expectProblem(answer, 401, 'UNAUTHORIZED', findMessage);
    });

    it('gives every operation of both resources its own message on 401', async () => {
      for (const { singular, plural, messages } of resources) {
        const cases = [
          ['POST', `/api/v1/${singular}`, messages.create],
          ['PUT', `/api/v1/${singular}/x`, messages.update],
          ['GET', `/api/v1/${singular}/x`, messages.find],
          ['GET', `/api/v1/${plural}/1/1`, messages.list],
          ['DELETE', `/api/v1/${singular}/x`, messages.delete],
        ] as const;
        for (const [method, path, message] of cases) {
          expectProblem(await call({ method, path, key: null }), 401, 'UNAUTHORIZED', message);
        }
      }
    });
  });

  describe('bodies', () => {
    it.each([
      ['no Content-Type', {}],
      ['text/plain', { 'content-type': 'text/plain' }],
      ['a latin-1 charset', { 'content-type': 'application/json; charset=iso-8859-1' }],
      ['an empty charset', { 'content-type': 'application/json; charset=' }],
      ['two charsets, utf-8 first', { 'content-type': 'application/json; charset=utf-8; charset=latin1' }],
      ['two charsets, both utf-8', { 'content-type': 'application/json; charset=utf-8; Charset=UTF-8' }],
      ['gzip encoding', { 'content-type': 'application/json', 'content-encoding': 'gzip' }],
      ['a garbled media type', { 'content-type': '/;;' }],
    ])('answers %s with 415', async (_label, headers) => {
      expectProblem(await post(headers, '{"value":"x"}'), 415, 'UNSUPPORTED_MEDIA_TYPE', createMessage);
    });

    it.each(['application/json; charset=UTF-8', 'application/json;charset="utf-8"', 'application/vnd.workplan+json', 'Application/JSON'])(
      'accepts the media type %s',
      async (type) => {
        dataOf(await post({ 'content-type': type }, JSON.stringify({ value: uniqueText() })), 201);
      },
    );

    it('answers a body of 16 KiB + 1 byte with 413 and one of 16 KiB with no 413', async () => {
      const json = { 'content-type': 'application/json' };
      const padded = (size: number) => `{"value":"x","pad":"${'a'.repeat(size - 22)}"}`;
      expect(Buffer.byteLength(padded(16 * 1024 + 1))).toBe(16 * 1024 + 1);
      expectProblem(await post(json, padded(16 * 1024 + 1)), 413, 'PAYLOAD_TOO_LARGE', createMessage);
      expect((await post(json, padded(16 * 1024))).status).not.toBe(413);
    });

    it.each([['empty', ''], ['cut short', '{"value":'], ['not JSON', 'value=12x36']])(
      'answers a %s body with 400 INVALID_JSON',
      async (_label, body) => {
        expectProblem(await post({ 'content-type': 'application/json' }, body), 400, 'INVALID_JSON', createMessage);
      },
    );

    it('checks the key before the media type, and the media type before the size', async () => {
      const huge = 'x'.repeat(20_000);
      expectProblem(await post({ 'content-type': 'text/plain' }, huge, null), 401, 'UNAUTHORIZED', createMessage);
      expectProblem(await post({ 'content-type': 'text/plain' }, huge), 415, 'UNSUPPORTED_MEDIA_TYPE', createMessage);
    });

    it('ignores a body on GET', async () => {
      const answer = await call({ path: '/api/v1/scales/1', headers: { 'content-type': 'text/plain' }, body: 'nonsense' });
      dataOf(answer, 200);
    });
  });

  describe('routes and methods', () => {
    it.each(['/nope', '/api/v1/nope', '/api/v1/scale/a/b', '/api/v2/scales', '/api/v1/scales/1/2/3'])(
      'answers %s with 404 ROUTE_NOT_FOUND, without a key',
      async (path) => {
        expectProblem(await call({ path, key: null }), 404, 'ROUTE_NOT_FOUND', 'Rota não encontrada.');
      },
    );

    it.each([
      ['PATCH', '/api/v1/scale/x', 'GET, HEAD, PUT, DELETE, OPTIONS'],
      ['GET', '/api/v1/scale', 'POST, OPTIONS'],
      ['POST', '/api/v1/costCenters', 'GET, HEAD, OPTIONS'],
      ['DELETE', '/health/live', 'GET, HEAD, OPTIONS'],
    ])('answers %s %s with 405 and Allow: %s, before the key', async (method, path, allow) => {
      const answer = await call({ method, path, key: null });
      expectProblem(answer, 405, 'METHOD_NOT_ALLOWED', 'Método não permitido.');
      expect(answer.headers.allow).toBe(allow);
    });

    it('answers OPTIONS with 204 and Allow, without a key', async () => {
      const answer = await call({ method: 'OPTIONS', path: '/api/v1/costCenter/any', key: null });
      expect({ status: answer.status, allow: answer.headers.allow }).toEqual({ status: 204, allow: 'GET, HEAD, PUT, DELETE, OPTIONS' });
    });

    it('matches paths case-insensitively and with one trailing slash', async () => {
      dataOf(await call({ path: '/API/V1/SCALES/' }), 200);
      dataOf(await call({ path: '/api/v1/costcenters/1/' }), 200);
    });
  });

  describe('unreadable requests', () => {
    it('answers malformed percent-encoding with 400 BAD_REQUEST', async () => {
      expectProblem(await call({ path: '/api/v1/scale/%E0%A4%A' }), 400, 'BAD_REQUEST', 'Requisição inválida.');
    });

    it.each([
      ['an unknown method', 'BREW /api/v1/scales HTTP/1.1\r\nHost: x\r\n\r\n'],
      ['bad header bytes', 'GET /api/v1/scales HTTP/1.1\r\nHost: x\r\nKE\x01Y: a\r\n\r\n'],
      ['a broken request line', 'GARBAGE\r\n\r\n'],
    ])('answers %s in the envelope with 400 BAD_REQUEST', async (_label, raw) => {
      expectProblem(await sendRaw(service().baseUrl, raw), 400, 'BAD_REQUEST', 'Requisição inválida.');
    });

    it('answers headers over the limit with 431 HEADERS_TOO_LARGE', async () => {
      const raw = `GET /api/v1/scales HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
      expectProblem(await sendRaw(service().baseUrl, raw), 431, 'HEADERS_TOO_LARGE', 'Requisição inválida.');
    });
  });

  describe('request ids and health', () => {
    it('echoes a well-formed X-Request-Id and replaces a bad one', async () => {
      const echoed = await call({ path: '/api/v1/scales/1', headers: { 'x-request-id': 'trace-123' } });
      expect(echoed.headers['x-request-id']).toBe('trace-123');
      const replaced = await call({ path: '/api/v1/scales/1', headers: { 'x-request-id': 'x'.repeat(129) } });
      expect(replaced.headers['x-request-id']).not.toBe('x'.repeat(129));
      expectCommonHeaders(replaced);
    });

    it('answers /health/live and /health/ready with 200 and no key', async () => {
      for (const path of ['/health/live', '/health/ready']) {
        const answer = await call({ path, key: null });
        expect({ status: answer.status, body: answer.json }).toEqual({ status: 200, body: { success: true } });
        expectCommonHeaders(answer);
      }
    });
  });
}
