import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { send, uniqueText, untilReady, type HttpAnswer } from '@workplan/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';
import { startService, type RunningService } from './service.js';

const ferretdb = process.env.FERRETDB_BIN;
const key = 'outage-test-key-0123456789';
const howToRun = 'run it with: bash scripts/test-db.sh pnpm test (it builds FerretDB and exports FERRETDB_BIN)';

/** A FerretDB of this test's own, on a fixed port and data folder, so it can die and come back. */
class OwnDatabase {
  #process: ChildProcess | undefined;
  constructor(readonly binary: string, readonly port: number, readonly dir: string) {}

  async start(): Promise<void> {
    this.#process = spawn(this.binary, [
      '--handler=sqlite', `--sqlite-url=file:${this.dir}/`, `--state-dir=${this.dir}`,
      `--listen-addr=127.0.0.1:${this.port}`, '--telemetry=disable', '--debug-addr=-', '--log-level=error',
    ], { stdio: 'ignore' });
    await eventually(() => portAnswers(this.port));
  }

  async stop(): Promise<void> {
    const running = this.#process;
    if (running?.exitCode !== null || running.signalCode !== null) return;
    running.kill('SIGKILL'); // An outage, not a shutdown: nothing is flushed politely.
    await once(running, 'exit');
  }
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  return port;
}

async function portAnswers(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => { resolve(true); });
    probe.listen(port, '127.0.0.1', () => { probe.close(() => { resolve(false); }); });
  });
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

if (ferretdb === undefined) {
  const message = `the MongoDB outage test cannot run: FERRETDB_BIN is not set; ${howToRun}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`\n${'!'.repeat(80)}\n${message}\n${'!'.repeat(80)}\n`);
}

describe.skipIf(ferretdb === undefined)('the app through a MongoDB outage', () => {
  let database: OwnDatabase;
  let service: RunningService;
  const call = (method: string, path: string, body?: unknown): Promise<HttpAnswer> =>
    send(service.url, {
      method, path,
      headers: { key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const created: string[] = [];

  afterAll(async () => {
    await service.close();
    await database.stop();
  });

  it('serves live but not ready while the database is down at start, then comes up with it', async () => {
    database = new OwnDatabase(ferretdb ?? '', await freePort(), await mkdtemp(join(tmpdir(), 'workplan-outage-')));
    const uri = `mongodb://127.0.0.1:${database.port}/workplan_outage`;
    service = await startService(parseConfig({ PORT: '0', API_KEYS: key, STORAGE: 'mongodb', MONGODB_URI: uri, LOG_LEVEL: 'silent' }));
    expect((await send(service.url, { path: '/health/live' })).status).toBe(200);
    expect((await send(service.url, { path: '/health/ready' })).status).toBe(503);
    expect((await call('GET', '/api/v1/scales')).status).toBe(503);
    await database.start();
    await untilReady(service.url, 30_000);
  });

  it('keeps every acknowledged record and answers 503 quickly while the database is gone', async () => {
    for (let i = 0; i < 20; i += 1) {
      const answer = await call('POST', '/api/v1/scale', { value: uniqueText('antes') });
      expect(answer.status).toBe(201);
      created.push((answer.json as { data: { id: string } }).data.id);
    }
    await database.stop();
    const started = Date.now();
    const during = await call('POST', '/api/v1/scale', { value: uniqueText('durante') });
    expect(during.status).toBe(503);
    expect(during.json).toMatchObject({ error: { code: 'STORAGE_UNAVAILABLE' } });
    expect(during.headers['retry-after']).toBe('2');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await send(service.url, { path: '/health/ready' })).status).toBe(503);
    expect((await send(service.url, { path: '/health/live' })).status).toBe(200);
  });

  it('recovers by itself when the database returns, with nothing acknowledged lost', async () => {
    await database.start();
    await untilReady(service.url, 30_000);
    await eventually(async () => (await call('GET', '/api/v1/scales')).status === 200);
    const listed = (await call('GET', '/api/v1/scales')).json as { data: { id: string }[] };
    expect(listed.data.map((r) => r.id)).toEqual(expect.arrayContaining(created));
    expect((await call('POST', '/api/v1/scale', { value: uniqueText('depois') })).status).toBe(201);
  });
});
