import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, peerScript, startServer, type ServerProcess } from './processes.js';

const started: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
});

const KEY = 'peer-test-key';
const headers = { key: KEY, 'content-type': 'application/json' };
const post = (url: string, body: unknown, given = headers) => fetch(`${url}/api/v1/scale`, { method: 'POST', headers: given, body: JSON.stringify(body) });

describe.each(['nest-express', 'nest-fastify'])('peer %s', { timeout: 60_000 }, (peer) => {
  it('serves the bench\'s routes in the envelope to a request with a key of API_KEYS, refuses one without, and its ValidationPipe a value that is not a string', async () => {
    const env = { ...process.env, API_KEYS: `other, ${KEY}` };
    const server = await startServer({ name: peer, script: peerScript(peer), env, ready: { path: '/health/live' } }, false);
    started.push(server);
    const created = await post(server.url, { value: 'Escala 12x36' });
    const record = ((await created.json()) as { data: { id: string } }).data;
    const found = await fetch(`${server.url}/api/v1/scale/${record.id}`, { headers });
    const page = await fetch(`${server.url}/api/v1/scales/0/100`, { headers });
    const refused = await post(server.url, { value: 3 });
    expect([created.status, created.headers.get('location'), found.status, await found.json()]).toEqual([
      201, `/api/v1/scale/${record.id}`, 200, { success: true, data: record },
    ]);
    expect([await page.json(), refused.status]).toEqual([{ success: true, data: [record] }, 400]);
    const keyless = await fetch(`${server.url}/api/v1/scale/${record.id}`);
    const wrongKey = await post(server.url, { value: 'Escala 6x1' }, { ...headers, key: 'wrong' });
    expect([keyless.status, wrongKey.status]).toEqual([401, 401]);
  });
});

describe.each(['nest-express', 'nest-fastify'])('peer %s\'s request log', { timeout: 60_000 }, (peer) => {
  it('writes one pino line on stdout for each answered request, with its method, path and status', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [peerScript(peer)], { env: { ...process.env, API_KEYS: KEY, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    try {
      const url = `http://127.0.0.1:${port}`;
      const pause = () => new Promise((resolve) => setTimeout(resolve, 50));
      while (!(await fetch(`${url}/health/live`).then((response) => response.ok, () => false))) await pause();
      await post(url, { value: 'Escala 5x2' });
      await fetch(`${url}/api/v1/scale/missing`, { headers });
      const answered = () => stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { req: { method: string; url: string }; res: { statusCode: number } });
      while (answered().length < 3) await pause();
      expect(answered().map(({ req, res }) => [req.method, req.url, res.statusCode])).toEqual([
        ['GET', '/health/live', 200], ['POST', '/api/v1/scale', 201], ['GET', '/api/v1/scale/missing', 404],
      ]);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
