import { parseConfig, startService, type RunningService } from '@workplan/app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, entityTagOf, WorkplanClientError, type ResourceClient, type WorkplanClient } from './index.js';

const key = 'client-test-key-0123456789';
let service: RunningService;
let client: WorkplanClient;

beforeAll(async () => {
  service = await startService(parseConfig({ PORT: '0', HOST: '127.0.0.1', API_KEYS: key, STORAGE: 'memory', LIST_MAX_LIMIT: '50', LOG_LEVEL: 'silent' }));
  client = createClient({ baseUrl: `${service.url}/`, key });
});

afterAll(async () => {
  await service.close();
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/u;

function describeResource<F extends 'value' | 'title'>(name: string, field: F, resource: () => ResourceClient<F>, text: (n: number) => string): void {
  describe(name, () => {
    it('creates, finds, updates, lists and deletes', async () => {
      const input = (n: number) => ({ [field]: text(n) }) as { readonly [K in F]: string };
      const created = await resource().create(input(1));
      expect(created).toMatchObject({ [field]: text(1) });
      expect(created.createdAt).toMatch(ISO);
      await expect(resource().find(created.id)).resolves.toEqual(created);
      const updated = await resource().update(created.id, input(2));
      expect(updated).toMatchObject({ id: created.id, [field]: text(2), createdAt: created.createdAt });
      const second = await resource().create(input(3));
      expect((await resource().list()).map((r) => r.id)).toEqual([created.id, second.id]);
      expect((await resource().list({ skip: 1, limit: 1 })).map((r) => r.id)).toEqual([second.id]);
      expect((await resource().list({ limit: 1 })).map((r) => r.id)).toEqual([created.id]);
      await resource().delete(created.id);
      await expect(resource().find(created.id)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    });

    it('remembers the tag of what it reads, and updates or deletes only while the record is unchanged', async () => {
      const input = (n: number) => ({ [field]: text(n) }) as { readonly [K in F]: string };
      const created = await resource().create(input(20));
      const tag = entityTagOf(created);
      expect(tag).toMatch(/^"[^"]+"$/u);
      const found = await resource().find(created.id);
      expect(entityTagOf(found)).toBe(tag);
      const updated = await resource().update(created.id, input(21), { ifMatch: found });
      expect(entityTagOf(updated)).not.toBe(tag);
      await expect(resource().update(created.id, input(22), { ifMatch: found })).rejects.toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
      await expect(resource().delete(created.id, { ifMatch: tag ?? '' })).rejects.toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
      await expect(resource().find(created.id)).resolves.toEqual(updated);
      await expect(resource().update(created.id, input(23), { ifMatch: { ...updated } })).rejects.toThrow(TypeError);
      await resource().delete(created.id, { ifMatch: updated });
      await expect(resource().find(created.id)).rejects.toMatchObject({ status: 404 });
    });

    it('rejects a clash with a typed error carrying the holder', async () => {
      const holder = await resource().create({ [field]: text(10) } as { readonly [K in F]: string });
      const clash = resource().create({ [field]: text(10).toUpperCase() } as { readonly [K in F]: string });
      await expect(clash).rejects.toBeInstanceOf(WorkplanClientError);
      await expect(clash).rejects.toMatchObject({ status: 409, code: 'CONFLICT', existingId: holder.id });
      await expect(clash).rejects.toSatisfy((e: unknown) => e instanceof WorkplanClientError && e.detail.length > 0);
    });
  });
}

describeResource('scales', 'value', () => client.scales, (n) => `turno ${n}`);
describeResource('costCenters', 'title', () => client.costCenters, (n) => `centro ${n}`);

describe('errors', () => {
  it('rejects a wrong key with 401, the operation message and the request id', async () => {
    const stranger = createClient({ baseUrl: service.url, key: 'not-a-key-at-all-000' });
    const error: unknown = await stranger.scales.list().catch((e: unknown) => e);
    if (!(error instanceof WorkplanClientError)) throw new Error(`expected a WorkplanClientError, got ${String(error)}`);
    expect({ status: error.status, code: error.code, message: error.message }).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'Não foi possível retornar as escalas de trabalho.',
    });
    expect(error.requestId).not.toBe('');
  });

  it('rejects an answer that is not the envelope with UNEXPECTED_RESPONSE', async () => {
    const proxy = createClient({ baseUrl: service.url, key, fetch: () => Promise.resolve(new Response('<html>', { status: 502 })) });
    await expect(proxy.costCenters.find('x')).rejects.toMatchObject({ status: 502, code: 'UNEXPECTED_RESPONSE' });
  });
});
