import { once } from 'node:events';
import { type AddressInfo } from 'node:net';
import { createMemoryStorage } from '@workplan/adapter-memory';
import { createWorkplan } from '@workplan/core';
import { expectBareProblem, expectProblem, send, sendRaw, type HttpAnswer } from '@workplan/testing';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, fingerprintOf, keyEntryOf } from './api-keys.js';
import { createApiRouter } from './api-router.js';
import { httpResourcesOf } from './resources.js';
import { contextOf, type RequestContext } from './request-context.js';
import { type AnsweredRequest } from './response-observer.js';
import { startMemoryApp, type MemoryApp } from './testing/memory-app.js';

const writeKey = 'unnamed-write-key-0123';
const readKey = 'payroll-read-key-0123';
const namedWriteKey = 'clock-write-key-01234';
const create = 'Não foi possível criar a escala de trabalho.';
const update = 'Não foi possível atualizar a escala de trabalho.';
const remove = 'Não foi possível deletar a escala de trabalho.';

let running: MemoryApp;
const answered: AnsweredRequest[] = [];

beforeAll(async () => {
  running = await startMemoryApp({
    key: writeKey,
    otherKeys: [keyEntryOf(readKey, { name: 'Folha', role: 'read' }), keyEntryOf(namedWriteKey, { name: 'Ponto' })],
    http: { onResponse: (one) => answered.push(one) },
  });
});

afterAll(async () => {
  await running.close();
});

function call(key: string, method: string, path: string, body?: string, type = 'application/json'): Promise<HttpAnswer> {
  const headers = body === undefined ? { key } : { key, 'content-type': type };
  return send(running.baseUrl, { method, path, headers, body });
}

async function createWith(key: string, value: string): Promise<HttpAnswer> {
  return call(key, 'POST', '/api/v1/scale', JSON.stringify({ value }));
}

function expectForbidden(answer: HttpAnswer, message: string): void {
  expectBareProblem(answer, 403, 'FORBIDDEN', message);
}

describe('a read key', () => {
  it('makes every GET and HEAD: find, list, and HEAD of both', async () => {
    const record = (JSON.parse((await createWith(writeKey, 'Escala lida')).text) as { data: { id: string } }).data;
    for (const path of [`/api/v1/scale/${record.id}`, '/api/v1/scales', '/api/v1/scales/1', '/api/v1/costCenters/0/1']) {
      expect((await call(readKey, 'GET', path)).status, path).toBe(200);
      expect((await call(readKey, 'HEAD', path)).status, path).toBe(200);
    }
  });

  it('is refused a create, an update and a delete with 403 FORBIDDEN and the operation message, changing nothing', async () => {
    const created = await createWith(writeKey, 'Escala guardada');
    const record = (created.json as { data: { id: string } }).data;
    const before = await call(writeKey, 'GET', `/api/v1/scale/${record.id}`);
    expectForbidden(await createWith(readKey, 'Escala negada'), create);
    expectForbidden(await call(readKey, 'PUT', `/api/v1/scale/${record.id}`, JSON.stringify({ value: 'Outra' })), update);
    expectForbidden(await call(readKey, 'DELETE', `/api/v1/scale/${record.id}`), remove);
    const after = await call(writeKey, 'GET', `/api/v1/scale/${record.id}`);
    expect({ status: after.status, body: after.json, etag: after.headers.etag }).toEqual({ status: 200, body: before.json, etag: before.headers.etag });
    const all = (await call(writeKey, 'GET', '/api/v1/scales')).json as { data: { value: string }[] };
    expect(all.data.map((r) => r.value)).not.toContain('Escala negada');
  });

  it('is refused before its body is read: a malformed, an unsupported or an oversized body is still 403', async () => {
    expectForbidden(await call(readKey, 'POST', '/api/v1/scale', '{"value":'), create);
    expectForbidden(await call(readKey, 'POST', '/api/v1/scale', '{"value":"x"}', 'text/plain'), create);
    expectForbidden(await call(readKey, 'PUT', '/api/v1/scale/x', JSON.stringify({ value: 'a'.repeat(20_000) })), update);
    // Declared far over the limit and never sent: answered without waiting for it.
    const { port } = new URL(running.baseUrl);
    const head = `POST /api/v1/scale HTTP/1.1\r\nHost: x\r\nKEY: ${readKey}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\nConnection: close\r\n\r\n`;
    const raw = await sendRaw(`http://127.0.0.1:${port}`, head);
    expect({ status: raw.status, code: (raw.json as { error?: { code?: string } } | undefined)?.error?.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
  });

  it('is refused a write of the other resource too, with its message', async () => {
    const answer = await call(readKey, 'POST', '/api/v1/costCenter', JSON.stringify({ title: 'Negado' }));
    expectForbidden(answer, 'Não foi possível criar o centro de custo.');
  });

  it('leaves OPTIONS, which needs no key, and a method the path lacks, which is checked first, as they were', async () => {
    const options = await call(readKey, 'OPTIONS', '/api/v1/scale/x');
    expect({ status: options.status, allow: options.headers.allow }).toEqual({ status: 204, allow: 'GET, HEAD, PUT, DELETE, OPTIONS' });
    expectProblem(await call(readKey, 'PATCH', '/api/v1/scale/x'), 405, 'METHOD_NOT_ALLOWED', 'Método não permitido.');
  });
});

describe('a write key', () => {
  it('creates, updates and deletes, named or not', async () => {
    for (const key of [writeKey, namedWriteKey]) {
      const created = await createWith(key, `Escala de ${key}`);
      expect(created.status).toBe(201);
      const { id } = (created.json as { data: { id: string } }).data;
      expect((await call(key, 'PUT', `/api/v1/scale/${id}`, JSON.stringify({ value: `Nova de ${key}` }))).status).toBe(200);
      expect((await call(key, 'DELETE', `/api/v1/scale/${id}`)).status).toBe(200);
    }
  });
});

describe('who made a request', () => {
  it('is told to logs and metrics by the key\'s name, or its fingerprint when it has none, never by the key', async () => {
    answered.length = 0;
    await call(readKey, 'GET', '/api/v1/scales');
    await createWith(readKey, 'Negada');
    await call(writeKey, 'GET', '/api/v1/scales');
    await call(namedWriteKey, 'GET', '/api/v1/scales');
    await call('not-a-key-0123456789', 'GET', '/api/v1/scales');
    expect(answered.map(({ method, status, keyName }) => ({ method, status, keyName }))).toEqual([
      { method: 'GET', status: 200, keyName: 'Folha' },
      { method: 'POST', status: 403, keyName: 'Folha' },
      { method: 'GET', status: 200, keyName: fingerprintOf(writeKey) },
      { method: 'GET', status: 200, keyName: 'Ponto' },
      { method: 'GET', status: 401, keyName: undefined },
    ]);
    const told = JSON.stringify(answered);
    for (const key of [writeKey, readKey, namedWriteKey]) expect(told).not.toContain(key);
  });

  it('is on the request context once the key is accepted, as name and role, for the handlers that write', async () => {
    const contexts: (RequestContext['key'])[] = [];
    const app = express();
    app.use((_req, res, next) => {
      res.once('finish', () => contexts.push(contextOf(res).key));
      next();
    });
    const storage = createMemoryStorage();
    const workplan = createWorkplan({ repositories: storage.repositories, changes: storage.changes });
    const keys = new ApiKeys([keyEntryOf(readKey, { name: 'Folha', role: 'read' }), keyEntryOf(writeKey)]);
    app.use('/api/v1', createApiRouter({ resources: httpResourcesOf(workplan), changes: workplan.changes, keys }));
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await send(baseUrl, { path: '/api/v1/scales', headers: { key: readKey } });
      await send(baseUrl, { method: 'POST', path: '/api/v1/scale', headers: { key: writeKey, 'content-type': 'application/json' }, body: '{"value":"Escala"}' });
      await send(baseUrl, { path: '/api/v1/scales', headers: { key: 'not-a-key-0123456789' } });
    } finally {
      server.close();
      server.closeAllConnections();
    }
    expect(contexts).toEqual([{ name: 'Folha', role: 'read' }, { name: fingerprintOf(writeKey), role: 'write' }, undefined]);
  });
});
