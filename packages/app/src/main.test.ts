import { mkdtempSync, writeFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fingerprintOf } from '@workplan/adapter-express';
import { runApp, send } from '@workplan/testing';
import { describe, expect, it } from 'vitest';

// The built entry point, as `pnpm start` runs it (`pnpm test` builds first).
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/** The app in a scratch working directory of its own, so its SQLite file never lands in the repository. */
function run(env: Record<string, string>) {
  return runApp(main, env, { cwd: mkdtempSync(join(tmpdir(), 'workplan-main-')) });
}

describe('main', () => {
  it('prints the URL and a run key, serves, and exits 0 on SIGTERM', async () => {
    const app = run({ PORT: '0', HOST: '127.0.0.1' });
    const [, url = ''] = await app.printed(/listening on (http:\S+)/u);
    const [, key = ''] = await app.printed(/KEY: (\S+)/u);
    expect((await send(url, { path: '/api/v1/costCenters', headers: { key } })).status).toBe(200);
    app.child.kill('SIGTERM');
    const [code] = await app.exited;
    expect(code).toBe(0);
  });

  it('writes the last request lines when it stops, though the log is written asynchronously', async () => {
    const key = 'batch-test-key-0123456789';
    const app = run({ PORT: '0', HOST: '127.0.0.1', API_KEYS: key, NODE_ENV: 'production' });
    const [, url = ''] = await app.printed(/listening on (http:\S+)/u);
    for (let n = 1; n <= 3; n += 1) {
      await send(url, { path: '/api/v1/scales', headers: { key, 'x-request-id': `before-stop-${n}` } });
    }
    app.child.kill('SIGTERM');
    const [code] = await app.exited;
    expect(code).toBe(0);
    for (let n = 1; n <= 3; n += 1) expect(app.output()).toContain(`"requestId":"before-stop-${n}"`);
  });

  // A wait, not a time: a busy machine may take seconds to load the app.
  it.each(['--help', '-h', 'help'])('prints its usage for %s and exits 0, whatever the configuration', { timeout: 60_000 }, async (flag) => {
    const app = runApp(main, { PORT: 'eighty' }, { cwd: mkdtempSync(join(tmpdir(), 'workplan-main-')), args: [flag] });
    const [code] = await app.exited;
    expect({ code, output: app.output() }).toEqual({ code: 0, output: expect.stringMatching(/^usage: workplan .*\n(.*\n)*.*workplan backup <file>/u) as unknown });
    expect(app.output()).not.toMatch(/did not start|unknown command/u);
  });

  it('refuses an unknown command with its usage and exit 1', { timeout: 60_000 }, async () => {
    const app = runApp(main, {}, { cwd: mkdtempSync(join(tmpdir(), 'workplan-main-')), args: ['serve'] });
    const [code] = await app.exited;
    expect(code).toBe(1);
    expect(app.output()).toMatch(/^workplan did not start: unknown command "serve"\nusage: workplan /u);
  });

  it('refuses a bad configuration with one line per setting and exit 1', async () => {
    const app = run({ PORT: 'eighty', STORAGE: 'paper' });
    const [code] = await app.exited;
    expect(code).toBe(1);
    expect(app.output().trimEnd().split('\n').sort()).toEqual([
      'invalid configuration: PORT must be a whole number from 0 to 65535, not "eighty"',
      'invalid configuration: STORAGE must be one of sqlite, memory, mongodb, not "paper"',
    ]);
  });

  it('refuses an API_KEYS that names no key in one line, rather than make a key for the run', async () => {
    const app = run({ PORT: '0', HOST: '127.0.0.1', API_KEYS: ' , ' });
    const [code] = await app.exited;
    expect(code).toBe(1);
    expect(app.output()).toBe('invalid configuration: API_KEYS is set but names no key: give keys separated by commas, or leave it unset\n');
  });

  it('refuses an API_KEYS_FILE that names no key in one line, rather than make a key for the run', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'workplan-keys-')), 'keys');
    writeFileSync(file, '# none yet\n');
    const app = run({ PORT: '0', HOST: '127.0.0.1', API_KEYS_FILE: file });
    const [code] = await app.exited;
    expect(code).toBe(1);
    expect(app.output()).toBe(`workplan did not start: API_KEYS_FILE (${file}) names no key: give one key a line, or leave it unset\n`);
  });

  it('logs one JSON line per request with the route pattern and the key\'s name, its fingerprint when unnamed, never the key', async () => {
    const key = 'production-key-0123456789';
    const named = 'payroll-read-key-0123456789';
    const app = run({ PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production', API_KEYS: `${key}, ${named} name=Folha role=read` });
    const url = await app.listening();
    await send(url, { path: '/api/v1/scale/an-id', headers: { key, 'x-request-id': 'log-test-1' } });
    const post = { method: 'POST', path: '/api/v1/scale', body: '{"value":"x"}' };
    await send(url, { ...post, headers: { key: named, 'content-type': 'application/json', 'x-request-id': 'log-test-2' } });
    const lineOf = async (requestId: string) => JSON.parse((await app.printed(new RegExp(`\\{[^\\n]*"requestId":"${requestId}"[^\\n]*\\}`, 'u')))[0]) as unknown;
    expect(await lineOf('log-test-1')).toMatchObject({
      level: 30,
      requestId: 'log-test-1',
      method: 'GET',
      route: '/api/v1/scale/:id',
      status: 404,
      durationMs: expect.any(Number) as unknown,
      key: fingerprintOf(key),
    });
    expect(await lineOf('log-test-2')).toMatchObject({ method: 'POST', route: '/api/v1/scale', status: 403, key: 'Folha' });
    expect(app.output()).not.toContain(key);
    expect(app.output()).not.toContain(named);
    expect(app.output()).not.toContain('an-id');
    app.child.kill('SIGTERM');
    await app.exited;
  });

  it('serves Prometheus metrics by route pattern at /metrics, and none with METRICS=off', async () => {
    const key = 'metrics-key-0123456789';
    const app = run({ PORT: '0', HOST: '127.0.0.1', API_KEYS: key, LOG_LEVEL: 'silent' });
    const [, url = ''] = await app.printed(/listening on (http:\S+)/u);
    await send(url, { path: '/api/v1/costCenters', headers: { key } });
    const metrics = await send(url, { path: '/metrics' });
    expect(metrics.status).toBe(200);
    expect(metrics.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/u);
    expect(metrics.text).toContain('workplan_http_request_duration_seconds_count{method="GET",route="/api/v1/costCenters",status="200"} 1');
    expect(metrics.text).toContain('workplan_http_request_duration_seconds_bucket');
    expect(metrics.text).toContain(`workplan_http_requests_by_key_total{key="${fingerprintOf(key)}",status="200"} 1`);
    expect(metrics.text).toContain('process_resident_memory_bytes');
    // An existing path, as every other: 405 with Allow for another method, 204 for OPTIONS.
    const post = await send(url, { method: 'POST', path: '/metrics' });
    expect({ status: post.status, allow: post.headers.allow, code: (post.json as { error: { code: string } }).error.code }).toEqual({
      status: 405,
      allow: 'GET, HEAD, OPTIONS',
      code: 'METHOD_NOT_ALLOWED',
    });
    const options = await send(url, { method: 'OPTIONS', path: '/metrics' });
    expect({ status: options.status, allow: options.headers.allow }).toEqual({ status: 204, allow: 'GET, HEAD, OPTIONS' });
    app.child.kill('SIGTERM');
    await app.exited;

    const off = run({ PORT: '0', HOST: '127.0.0.1', API_KEYS: key, LOG_LEVEL: 'silent', METRICS: 'off' });
    const [, offUrl = ''] = await off.printed(/listening on (http:\S+)/u);
    expect((await send(offUrl, { path: '/metrics' })).status).toBe(404);
    off.child.kill('SIGTERM');
    await off.exited;
  });

  it('writes its start, key reload and stop as JSON lines in production, also when LOG_LEVEL quiets requests', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'workplan-lines-')), 'keys');
    await writeFile(file, 'lines-key-0123456789\n');
    const app = run({ PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production', API_KEYS_FILE: file, LOG_LEVEL: 'warn' });
    const url = await app.listening();
    await send(url, { path: '/api/v1/scales', headers: { key: 'lines-key-0123456789' } });
    app.child.kill('SIGHUP');
    await app.printed(/keys reloaded/u);
    app.child.kill('SIGTERM');
    expect((await app.exited)[0]).toBe(0);
    const lines = app.output().trim().split('\n').map((line) => JSON.parse(line) as { level: number; time: number; msg: string });
    // A first start makes the database file, and says so.
    const [made, ...life] = lines;
    expect(made).toMatchObject({ level: 40, msg: expect.stringMatching(/did not exist: a new, empty database was made there$/u) as unknown });
    const messages = life.map((line) => line.msg);
    expect(messages).toHaveLength(4);
    expect(messages[0]).toMatch(/^workplan listening on http:\/\/127\.0\.0\.1:\d+ \(storage: sqlite, file /u);
    expect(messages.slice(1)).toEqual([`console: ${url}/console/`, 'keys reloaded: 1 key(s)', 'SIGTERM: closing']);
    for (const line of life) expect(line).toMatchObject({ level: 30, time: expect.any(Number) as unknown });
  });

  it('rotates keys from the key file on SIGHUP', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'workplan-hup-')), 'keys');
    await writeFile(file, 'first-key-0123456789\n');
    const app = run({ PORT: '0', HOST: '127.0.0.1', API_KEYS_FILE: file, LOG_LEVEL: 'silent' });
    const [, url = ''] = await app.printed(/listening on (http:\S+)/u);
    const status = async (key: string) => (await send(url, { path: '/api/v1/scales', headers: { key } })).status;
    expect(await status('first-key-0123456789')).toBe(200);
    await writeFile(file, 'second-key-0123456789\n');
    app.child.kill('SIGHUP');
    await app.printed(/keys reloaded/u);
    expect([await status('first-key-0123456789'), await status('second-key-0123456789')]).toEqual([401, 200]);
    app.child.kill('SIGTERM');
    await app.exited;
  });

  it('changes a key\'s role and name on SIGHUP, and keeps them, with one line, when the file turns bad', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'workplan-roles-')), 'keys');
    const key = 'role-change-key-0123456789';
    await writeFile(file, `# payroll\n${key} role=read name=Folha\n`);
    const app = run({ PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production', API_KEYS_FILE: file });
    const url = await app.listening();
    const create = async (id: string) =>
      (await send(url, { method: 'POST', path: '/api/v1/costCenter', headers: { key, 'content-type': 'application/json', 'x-request-id': id }, body: JSON.stringify({ title: id }) })).status;
    const loggedKey = async (id: string) => (JSON.parse((await app.printed(new RegExp(`\\{[^\\n]*"requestId":"${id}"[^\\n]*\\}`, 'u')))[0]) as { key: string }).key;
    expect(await create('while-read')).toBe(403);
    expect(await loggedKey('while-read')).toBe('Folha');

    await writeFile(file, `${key} name=Folha-escrita\n`);
    app.child.kill('SIGHUP');
    await app.printed(/keys reloaded: 1 key\(s\)/u);
    expect(await create('once-write')).toBe(201);
    expect(await loggedKey('once-write')).toBe('Folha-escrita');

    await writeFile(file, `${key} name=Folha-escrita role=admin\n`);
    app.child.kill('SIGHUP');
    const [refusal = ''] = await app.printed(/\{[^\n]*keys not reloaded[^\n]*\}/u);
    expect(JSON.parse(refusal)).toMatchObject({ level: 50, msg: `keys not reloaded, keeping the old ones: API_KEYS_FILE (${file}) line 1: role must be read or write` });
    expect(await create('after-bad-file')).toBe(201);
    expect(app.output()).not.toContain(key);
    app.child.kill('SIGTERM');
    await app.exited;
  });
});
