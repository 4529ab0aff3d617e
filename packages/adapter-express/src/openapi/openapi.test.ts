import { readFileSync } from 'node:fs';
import { send } from '@workplan/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describedResources } from '../resources.js';
import { startMemoryApp, type MemoryApp } from '../testing/memory-app.js';
import { openApiDocument } from './document.js';

let running: MemoryApp;
let baseUrl: string;

beforeAll(async () => {
  running = await startMemoryApp({ key: 'docs-test-key-0123456', workplan: { ids: { next: () => '0190a000-0000-7000-8000-000000000001' } } });
  baseUrl = running.baseUrl;
});

afterAll(async () => {
  await running.close();
});

describe('the API document', () => {
  it('is what openapi.json at the repository root holds (regenerate: pnpm build && node scripts/write-openapi.mjs)', () => {
    const file = readFileSync(new URL('../../../../openapi.json', import.meta.url), 'utf8');
    expect(JSON.parse(file)).toEqual(openApiDocument(describedResources));
  });

  it('is served at /openapi.json without a key', async () => {
    const answer = await send(baseUrl, { path: '/openapi.json' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.json).toEqual(openApiDocument(describedResources));
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
    expect(openApiDocument(describedResources)).toHaveProperty('components.securitySchemes.apiKey', expect.objectContaining({ in: 'header', name: 'KEY' }));
  });

  it('serves no other file of the Swagger UI package', async () => {
    const answer = await send(baseUrl, { path: '/docs/assets/swagger-initializer.js' });
    expect(answer.status).toBe(404);
  });
});
