import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { MemoryRecordRepository } from '@workplan/adapter-memory';
import { costCenter, createWorkplan, workSchedule } from '@workplan/core';
import { send } from '@workplan/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys } from '../api-keys.js';
import { createHttpApp } from '../http-app.js';
import { costCenterResource, workScheduleResource } from '../resources.js';
import { openApiDocument } from './document.js';

const workplan = createWorkplan({
  workSchedules: new MemoryRecordRepository(workSchedule),
  costCenters: new MemoryRecordRepository(costCenter),
  ids: { next: () => '0190a000-0000-7000-8000-000000000001' },
});
const served = [workScheduleResource(workplan.workSchedules), costCenterResource(workplan.costCenters)];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer(createHttpApp({ resources: served, keys: new ApiKeys(['docs-test-key-0123456']), isReady: () => Promise.resolve(true) }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.close();
  await once(server, 'close');
});

describe('the API document', () => {
  it('is what openapi.json at the repository root holds (regenerate: pnpm build && node scripts/write-openapi.mjs)', () => {
    const file = readFileSync(new URL('../../../../openapi.json', import.meta.url), 'utf8');
    expect(JSON.parse(file)).toEqual(openApiDocument());
  });

  it('is served at /openapi.json without a key', async () => {
    const answer = await send(baseUrl, { path: '/openapi.json' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.json).toEqual(openApiDocument());
  });

  it('is shown at /docs by Swagger UI served from the app itself, with a KEY to authorise', async () => {
    const page = await send(baseUrl, { path: '/docs' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/gu)].map((m) => m[1] ?? '');
    expect(sources.every((s) => s.startsWith('/docs/'))).toBe(true);
    for (const source of sources) {
      const asset = await send(baseUrl, { path: source });
      expect({ source, status: asset.status }).toEqual({ source, status: 200 });
    }
    const init = await send(baseUrl, { path: '/docs/init.js' });
    expect(init.text).toContain("url: '/openapi.json'");
    expect(openApiDocument()).toHaveProperty('components.securitySchemes.apiKey', expect.objectContaining({ in: 'header', name: 'KEY' }));
  });

  it('serves no other file of the Swagger UI package', async () => {
    const answer = await send(baseUrl, { path: '/docs/assets/swagger-initializer.js' });
    expect(answer.status).toBe(404);
  });
});
