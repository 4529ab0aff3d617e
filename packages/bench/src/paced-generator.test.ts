import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PacedGenerator } from './paced-generator.js';

let server: Server | undefined;
let generator: PacedGenerator | undefined;

afterEach(async () => {
  await generator?.stop();
  await new Promise<void>((resolve) => {
    if (server === undefined) resolve();
    else server.close(() => { resolve(); });
  });
});

/** An in-process server answering 201 to a POST and 200 to anything else, noting each request. */
async function listening(): Promise<{ url: string; seen: { method: string; url: string; body: string; key: string | undefined }[] }> {
  const seen: { method: string; url: string; body: string; key: string | undefined }[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body, key: req.headers.key as string | undefined });
      res.statusCode = req.method === 'POST' ? 201 : 200;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

// Real processes and loads of a second or two: time enough for a machine that other work slows down.
describe('PacedGenerator', { timeout: 60_000 }, () => {
  it('sends each load from its own process, a sample per load in order, after one uncounted warm-up', async () => {
    const { url, seen } = await listening();
    generator = PacedGenerator.start({ warmupSeconds: 0.5 });
    const ids = ['a', 'b', 'c'];
    const run = {
      server: { url, pid: process.pid },
      seconds: 1,
      headers: { key: 'k' },
      loads: [
        { perSecond: 100, connections: 2, requests: { kind: 'find', ids } },
        { perSecond: 40, connections: 1, requests: { kind: 'create' } },
        { perSecond: 20, connections: 1, requests: { kind: 'get', path: '/health/live' } },
      ],
    } as const;
    await generator.warm(run);
    const [finds, creates, lives] = await generator.run(run);
    expect([finds?.requests, creates?.requests, lives?.requests]).toEqual([100, 40, 20]);
    expect([finds?.non2xx, creates?.non2xx, lives?.non2xx, finds?.errors]).toEqual([0, 0, 0, 0]);
    // The warm-up sent the same loads for half a second before, and counted none of them.
    expect(seen.length).toBe(160 + 80);
    expect(seen.every(({ key }) => key === 'k')).toBe(true);
    const found = seen.filter(({ method, url: path }) => method === 'GET' && path !== '/health/live').map(({ url: path }) => path);
    expect(found).toHaveLength(150);
    expect(new Set(found)).toEqual(new Set(ids.map((id) => `/api/v1/scale/${id}`)));
    const posted = seen.filter(({ method }) => method === 'POST').map(({ body }) => (JSON.parse(body) as { value: string }).value);
    expect(new Set(posted).size).toBe(posted.length);
    expect(seen.filter(({ url: path }) => path === '/health/live')).toHaveLength(30);

    // Warmed once only.
    seen.length = 0;
    await generator.warm(run);
    const [again] = await generator.run({ ...run, loads: [run.loads[0]] });
    expect([again?.requests, seen.length]).toEqual([100, 100]);
  });

  it('counts a request the server refused as an error, not as an answer', async () => {
    generator = PacedGenerator.start({ warmupSeconds: 0 });
    const closed = { url: 'http://127.0.0.1:9', pid: process.pid };
    const [sample] = await generator.run({ server: closed, seconds: 0.2, loads: [{ perSecond: 20, connections: 1, requests: { kind: 'get', path: '/' } }] });
    expect(sample?.errors).toBe(4);
    expect(sample?.requests).toBe(0);
  });
});
