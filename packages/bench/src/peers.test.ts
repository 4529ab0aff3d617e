import { afterAll, describe, expect, it } from 'vitest';
import { peerScript, startServer, type ServerProcess } from './processes.js';

const started: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
});

const post = (url: string, body: unknown) =>
  fetch(`${url}/api/v1/scale`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe.each(['nest-express', 'nest-fastify'])('peer %s', { timeout: 30_000 }, (peer) => {
  it('serves the bench\'s routes in the envelope, and its ValidationPipe refuses a value that is not a string', async () => {
    const server = await startServer({ name: peer, script: peerScript(peer), env: { ...process.env }, ready: { stdoutLine: 'listening' } }, false);
    started.push(server);
    const created = await post(server.url, { value: 'Escala 12x36' });
    const record = ((await created.json()) as { data: { id: string } }).data;
    const found = await fetch(`${server.url}/api/v1/scale/${record.id}`);
    const page = await fetch(`${server.url}/api/v1/scales/0/100`);
    const refused = await post(server.url, { value: 3 });
    expect([created.status, created.headers.get('location'), found.status, await found.json()]).toEqual([
      201, `/api/v1/scale/${record.id}`, 200, { success: true, data: record },
    ]);
    expect([await page.json(), refused.status]).toEqual([{ success: true, data: [record] }, 400]);
  });
});
