import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectProblem, send } from '@workplan/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CONTENT_SECURITY_POLICY } from './page-policy.js';
import { type AnsweredRequest } from './response-observer.js';
import { startMemoryApp, type MemoryApp } from './testing/memory-app.js';

const key = 'console-site-key-0123456789';
let site: MemoryApp;
let bare: MemoryApp;
const answered: AnsweredRequest[] = [];

beforeAll(async () => {
  // A built console in miniature: a page, a hashed asset, and what must never be served.
  const root = await mkdtemp(join(tmpdir(), 'workplan-console-'));
  const directory = join(root, 'site');
  await mkdir(join(directory, 'assets'), { recursive: true });
  await writeFile(join(directory, 'index.html'), '<!doctype html><title>console</title><script type="module" src="/console/assets/app-1a2b.js"></script>');
  await writeFile(join(directory, 'assets', 'app-1a2b.js'), 'console.log(1);');
  await writeFile(join(directory, '.env'), 'SECRET=1');
  await writeFile(join(root, 'secret.txt'), 'outside the site');
  site = await startMemoryApp({ key, http: { consoleDirectory: directory, onResponse: (one) => answered.push(one) } });
  bare = await startMemoryApp({ key });
});

afterAll(async () => {
  await site.close();
  await bare.close();
});

describe('the console site', () => {
  it('redirects GET and HEAD / to /console/ with 302, and refuses other methods with 405', async () => {
    for (const method of ['GET', 'HEAD']) {
      const answer = await send(site.baseUrl, { method, path: '/' });
      expect({ status: answer.status, location: answer.headers.location, body: answer.text }).toEqual({ status: 302, location: '/console/', body: '' });
    }
    const post = await send(site.baseUrl, { method: 'POST', path: '/' });
    expectProblem(post, 405, 'METHOD_NOT_ALLOWED', 'Método não permitido.');
    expect(post.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('serves the page at /console/ under a strict Content-Security-Policy, checked again on every load', async () => {
    const page = await send(site.baseUrl, { path: '/console/' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<title>console</title>');
    expect(page.headers['content-security-policy']).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    expect(CONSOLE_CONTENT_SECURITY_POLICY).toMatch(/^default-src 'self'; script-src 'self'; style-src 'self';/u);
    expect(CONSOLE_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|\*|https?:|data:/u);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect((await send(site.baseUrl, { path: '/console' })).headers.location).toBe('/console/');
  });

  it('serves a hashed asset as JavaScript, cached for a year', async () => {
    const asset = await send(site.baseUrl, { path: '/console/assets/app-1a2b.js' });
    expect({ status: asset.status, type: asset.headers['content-type'], text: asset.text }).toEqual({
      status: 200,
      type: 'text/javascript; charset=utf-8',
      text: 'console.log(1);',
    });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-security-policy']).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
  });

  it.each(['/console/nope.js', '/console/.env', '/console/..%2Fsecret.txt', '/console/assets/..%2F..%2Fsecret.txt', '/console/%2e%2e/secret.txt'])(
    'answers %s with the envelope\'s 404, and nothing outside the site',
    async (path) => {
      const answer = await send(site.baseUrl, { path });
      expectProblem(answer, 404, 'ROUTE_NOT_FOUND', 'Rota não encontrada.');
      expect(answer.text).not.toContain('SECRET');
      expect(answer.text).not.toContain('outside');
    },
  );

  it('answers OPTIONS with Allow, and a write with 405', async () => {
    const options = await send(site.baseUrl, { method: 'OPTIONS', path: '/console/' });
    expect({ status: options.status, allow: options.headers.allow }).toEqual({ status: 204, allow: 'GET, HEAD, OPTIONS' });
    const put = await send(site.baseUrl, { method: 'PUT', path: '/console/index.html', body: 'x' });
    expectProblem(put, 405, 'METHOD_NOT_ALLOWED', 'Método não permitido.');
  });

  it('names its route in logs and metrics: / and /console, never unmatched', async () => {
    answered.length = 0;
    await send(site.baseUrl, { path: '/', headers: { 'x-request-id': 'root-1' } });
    await send(site.baseUrl, { path: '/console/assets/app-1a2b.js', headers: { 'x-request-id': 'asset-1' } });
    await expect.poll(() => answered.length).toBe(2);
    expect(answered.map(({ requestId, route, status }) => ({ requestId, route, status }))).toEqual([
      { requestId: 'root-1', route: '/', status: 302 },
      { requestId: 'asset-1', route: '/console', status: 200 },
    ]);
  });

  it('is not there when the app is given no console: / stays a 404', async () => {
    expectProblem(await send(bare.baseUrl, { path: '/' }), 404, 'ROUTE_NOT_FOUND', 'Rota não encontrada.');
    expectProblem(await send(bare.baseUrl, { path: '/console/' }), 404, 'ROUTE_NOT_FOUND', 'Rota não encontrada.');
  });
});
