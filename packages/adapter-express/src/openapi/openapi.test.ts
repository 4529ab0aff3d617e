import { readFileSync } from 'node:fs';
import { send } from '@workplan/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CONTENT_SECURITY_POLICY, DOCS_CONTENT_SECURITY_POLICY } from '../page-policy.js';
import { seedKinds } from '@workplan/core';
import { startMemoryApp, type MemoryApp } from '../testing/memory-app.js';
import { openApiDocument } from './document.js';

const seedResources = Object.values(seedKinds);

let running: MemoryApp;
let baseUrl: string;

beforeAll(async () => {
  running = await startMemoryApp({ key: 'docs-test-key-0123456', workplan: { ids: { next: () => '0190a000-0000-7000-8000-000000000001' } } });
  baseUrl = running.baseUrl;
});

afterAll(async () => {
  await running.close();
});

/** Every string of a JSON value. */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(textsOf);
  return [];
}

describe('the Portuguese of the API document', () => {
  const texts = textsOf(openApiDocument(seedResources));

  it.each(seedResources.map((resource) => [resource.one, resource] as const))(
    'puts the articles of its gender before "%s", and no other',
    (_one, resource) => {
      const wrong = resource.gender === 'feminine' ? ['o', 'os', 'um', 'uns'] : ['a', 'as', 'uma', 'umas'];
      const right = resource.gender === 'feminine' ? ['a', 'as', 'uma'] : ['o', 'os', 'um'];
      const before = (articles: readonly string[]) =>
        new RegExp(`(^|[\\s(])(${articles.join('|')}) (${resource.one}|${resource.many})\\b`, 'iu');
      expect(texts.filter((text) => before(wrong).test(text))).toEqual([]);
      expect(texts.filter((text) => before(right).test(text)).length).toBeGreaterThanOrEqual(8);
    },
  );

  it('says "um centro de custo" and "uma escala de trabalho" in the summaries, with agreeing words', () => {
    expect(texts).toEqual(
      expect.arrayContaining([
        'Cria um centro de custo',
        'Lista os centros de custo (até o máximo da página)',
        'Lista os primeiros {limit} centros de custo',
        'O centro de custo foi apagado.',
        'Os centros de custo, dos mais antigos aos mais novos.',
        'Cria uma escala de trabalho',
        'Lista as primeiras {limit} escalas de trabalho',
        'A escala de trabalho criada.',
        'Uma escala de trabalho, como o serviço a guarda.',
      ]),
    );
  });
});

describe('the API document', () => {
  it('is what openapi.json at the repository root holds (regenerate: pnpm build && node scripts/write-openapi.mjs)', () => {
    const file = readFileSync(new URL('../../../../openapi.json', import.meta.url), 'utf8');
    expect(JSON.parse(file)).toEqual(openApiDocument(seedResources));
  });

  it('admits in each input schema the texts the service takes that are longer before trimming and NFC', async () => {
    const document = openApiDocument(seedResources) as { components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> } };
    const texts = [` ${'q'.repeat(200)} `, 'e\u0301'.repeat(150)];
    for (const resource of seedResources) {
      const schema = document.components.schemas[`${resource.schema}Input`]?.properties[resource.field] ?? {};
      for (const text of texts) {
        const answer = await send(baseUrl, {
          method: 'POST',
          path: `/api/v1/${resource.singular}`,
          headers: { key: 'docs-test-key-0123456', 'content-type': 'application/json' },
          body: JSON.stringify({ [resource.field]: text }),
        });
        expect(answer.status).toBe(201);
        const length = Array.from(text).length; // code points, as JSON Schema counts them
        expect(length <= Number(schema['maxLength'] ?? Infinity) && new RegExp(String(schema['pattern']), 'u').test(text)).toBe(true);
      }
    }
  });

  it('is served at /openapi.json without a key', async () => {
    const answer = await send(baseUrl, { path: '/openapi.json' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.json).toEqual(openApiDocument(seedResources));
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
    expect(init.text).toContain("fetch('/openapi.json')");
    expect(openApiDocument(seedResources)).toHaveProperty('components.securitySchemes.apiKey', expect.objectContaining({ in: 'header', name: 'KEY' }));
  });

  it('sends /docs and its files under a Content-Security-Policy as strict as the console\'s, no framing and no referrer, and keeps no key', async () => {
    for (const path of ['/docs', '/docs/init.js', '/docs/assets/swagger-ui.css']) {
      const answer = await send(baseUrl, { path });
      const policy = answer.headers['content-security-policy'] ?? '';
      expect({ path, policy, referrer: answer.headers['referrer-policy'] }).toEqual({ path, policy: DOCS_CONTENT_SECURITY_POLICY, referrer: 'no-referrer' });
    }
    // The console's policy, but for the icons Swagger UI's stylesheet draws as data: images.
    expect(DOCS_CONTENT_SECURITY_POLICY).toBe(CONSOLE_CONTENT_SECURITY_POLICY.replace("img-src 'self'", "img-src 'self' data:"));
    expect(DOCS_CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect((await send(baseUrl, { path: '/docs/init.js' })).text).not.toMatch(/persistAuthorization: true|localStorage/u);
  });

  it('serves no other file of the Swagger UI package', async () => {
    const answer = await send(baseUrl, { path: '/docs/assets/swagger-initializer.js' });
    expect(answer.status).toBe(404);
  });
});

describe('the refusals of a parameter in the API document', () => {
  const document = openApiDocument(seedResources) as { paths: Record<string, Record<string, OperationJson>> };
  const exampleOf = (path: string, status: string, code: string) =>
    document.paths[path]?.get?.responses[status]?.content?.['application/json']?.examples?.[code]?.value.error.detail;

  it('shows in its examples the detail the service answers: the bound or the values a parameter takes', async () => {
    const answered = async (path: string) => ((await send(baseUrl, { path, headers: { key: 'docs-test-key-0123456' } })).json as ErrorJson).error.detail;
    expect(exampleOf('/api/v1/scales/{skip}/{limit}', '400', 'INVALID_PAGINATION')).toBe(await answered('/api/v1/scales/0/5000'));
    expect(exampleOf('/api/v1/scales', '400', 'INVALID_QUERY')).toBe(await answered('/api/v1/scales?sort=bogus'));
    expect(exampleOf('/api/v1/costCenters', '400', 'INVALID_QUERY')).toBe(await answered('/api/v1/costCenters?sort=bogus'));
    expect(exampleOf('/api/v1/changes', '400', 'INVALID_QUERY')).toBe(await answered('/api/v1/changes?limit=5000'));
    expect(exampleOf('/api/v1/scales', '400', 'INVALID_QUERY')).toContain('-updatedAt');
  });

  it('says that the detail names the parameter and what it takes', () => {
    const description = document.paths['/api/v1/scales/{skip}/{limit}']?.get?.responses['400']?.description ?? '';
    expect(description).toMatch(/`INVALID_PAGINATION`: [^`]*o `detail` diz qual parâmetro e o que ele aceita/u);
    expect(description).toMatch(/`INVALID_QUERY`: [^`]*o `detail` diz qual parâmetro e o que ele aceita/u);
  });
});

interface ErrorJson {
  readonly error: { readonly detail: string };
}

interface OperationJson {
  readonly responses: Record<string, { description?: string; content?: Record<string, { examples?: Record<string, { value: ErrorJson }> }> }>;
}
