import { MemoryRecordRepository } from '@workplan/adapter-memory';
import { WorkplanError, workSchedule, type RecordRepository } from '@workplan/core';
import { expectProblem, send } from '@workplan/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiKeys, fingerprintOf, keyEntryOf, MAX_KEY_BYTES } from './api-keys.js';
import { startMemoryApp, type MemoryApp } from './testing/memory-app.js';

const key = 'failure-test-key-0123';

/** A repository whose every call fails the way `failure` says: the storage's bad days. */
function failingRepository(failure: () => Error): RecordRepository<'value'> {
  const fail = () => Promise.reject(failure());
  return { insert: fail, update: fail, findById: fail, list: fail, query: fail, count: fail, delete: fail };
}

let running: MemoryApp | undefined;
const unexpected: unknown[] = [];

async function serve(repository: RecordRepository<'value'>, isReady = () => Promise.resolve(true)): Promise<string> {
  running = await startMemoryApp({
    key,
    workplan: { repositories: { workSchedules: repository }, ids: { next: () => '0190a000-0000-7000-8000-000000000001' } },
    http: { isReady, onUnexpectedError: (error) => unexpected.push(error) },
  });
  return running.baseUrl;
}

afterEach(async () => {
  await running?.close();
  running = undefined;
  unexpected.length = 0;
});

describe('failures of the storage', () => {
  it('answers an unexpected error with 500 INTERNAL, telling the operator and leaking nothing', async () => {
    const secret = 'connection string mongodb://admin:hunter2@db';
    const baseUrl = await serve(failingRepository(() => new Error(secret)));
    const answer = await send(baseUrl, { path: '/api/v1/scale/abc', headers: { key } });
    expectProblem(answer, 500, 'INTERNAL', 'Não foi possível retornar a escala de trabalho.');
    expect(answer.text).not.toContain('hunter2');
    expect(answer.text).not.toContain('Error');
    expect(unexpected).toHaveLength(1);
  });

  it('answers an unreachable storage with 503 STORAGE_UNAVAILABLE and Retry-After: 2', async () => {
    const baseUrl = await serve(failingRepository(() => WorkplanError.storageUnavailable(new Error('timeout'))));
    const headers = { key, 'content-type': 'application/json' };
    const answer = await send(baseUrl, { method: 'POST', path: '/api/v1/scale', headers, body: '{"value":"6x1"}' });
    expectProblem(answer, 503, 'STORAGE_UNAVAILABLE', 'Não foi possível criar a escala de trabalho.');
    expect(answer.headers['retry-after']).toBe('2');
    expect(unexpected).toHaveLength(0);
  });

  it('answers /health/ready with 503 while the storage does not answer, and /health/live with 200', async () => {
    const baseUrl = await serve(new MemoryRecordRepository(workSchedule), () => Promise.reject(new Error('down')));
    const ready = await send(baseUrl, { path: '/health/ready' });
    expectProblem(ready, 503, 'STORAGE_UNAVAILABLE', 'Serviço indisponível.');
    expect(ready.headers['retry-after']).toBe('2');
    expect((await send(baseUrl, { path: '/health/live' })).status).toBe(200);
  });
});

describe('ApiKeys', () => {
  const keysOf = (...keys: string[]) => new ApiKeys(keys.map((k) => keyEntryOf(k)));

  it('identifies a configured key by its name and role, and refuses others', () => {
    const keys = new ApiKeys([keyEntryOf('first-key-0123456789'), keyEntryOf('second-key-0123456789', { name: 'Folha', role: 'read' })]);
    expect(keys.identify('second-key-0123456789')).toEqual({ name: 'Folha', role: 'read' });
    expect(keys.identify('first-key-0123456789')).toEqual({ name: fingerprintOf('first-key-0123456789'), role: 'write' });
    expect(keys.identify('second-key-012345678')).toBeUndefined();
    expect(keys.identify('')).toBeUndefined();
  });

  it('swaps the whole set on replace, roles included', () => {
    const keys = keysOf('old-key-0123456789ab', 'kept-key-0123456789a');
    keys.replace([keyEntryOf('new-key-0123456789ab'), keyEntryOf('kept-key-0123456789a', { role: 'read' })]);
    expect(keys.identify('old-key-0123456789ab')).toBeUndefined();
    expect(keys.identify('new-key-0123456789ab')).toBeDefined();
    expect(keys.identify('kept-key-0123456789a')?.role).toBe('read');
  });
});

describe('ApiKeys, compared as length and padded bytes', () => {
  it('tells apart keys where one is a prefix of the other, or differs only in length', () => {
    const keys = new ApiKeys([keyEntryOf('prefix-key-0123456789')]);
    expect(keys.identify('prefix-key-0123456789\0')).toBeUndefined();
    expect(keys.identify('prefix-key-012345678')).toBeUndefined();
    expect(keys.identify('prefix-key-0123456789')?.name).toBe(fingerprintOf('prefix-key-0123456789'));
  });

  it('refuses a candidate longer than any key can be, and a configured key that long', () => {
    const keys = new ApiKeys([keyEntryOf('k'.repeat(MAX_KEY_BYTES))]);
    expect(keys.identify('k'.repeat(MAX_KEY_BYTES))).toBeDefined();
    expect(keys.identify('k'.repeat(MAX_KEY_BYTES + 1))).toBeUndefined();
    expect(keys.identify('é'.repeat(MAX_KEY_BYTES / 2 + 1))).toBeUndefined();
    expect(() => new ApiKeys([keyEntryOf('k'.repeat(MAX_KEY_BYTES + 1))])).toThrow(RangeError);
  });
});
