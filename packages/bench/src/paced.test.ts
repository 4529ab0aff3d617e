import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runPaced } from './paced.js';
import { type ServerProcess } from './processes.js';

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => {
    if (server === undefined) resolve();
    else server.close(() => { resolve(); });
  });
});

/** An in-process server answering after `delayMs` (every tenth with 500), noting when each request arrived and what it carried. */
async function listening(delayMs: (n: number) => number): Promise<{ target: ServerProcess; arrivals: number[]; bodies: string[] }> {
  const arrivals: number[] = [];
  const bodies: string[] = [];
  server = createServer((req, res) => {
    const n = arrivals.push(performance.now());
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      bodies.push(body);
      setTimeout(() => {
        res.statusCode = n % 10 === 0 ? 500 : 200;
        res.end('ok');
      }, delayMs(n));
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const target = { name: 'test', url: `http://127.0.0.1:${port}`, pid: process.pid, rssMb: () => 1, stop: async () => {} };
  return { target, arrivals, bodies };
}

describe('runPaced', () => {
  it('sends its requests evenly spread over the run, not in bursts at the top of each second', async () => {
    const { target, arrivals, bodies } = await listening(() => 0);
    const sample = await runPaced({ server: target, perSecond: 200, seconds: 1.5, connections: 4, next: () => ({ method: 'POST', path: '/x', body: '{"a":1}' }) });
    expect([sample.requests, sample.non2xx, sample.errors]).toEqual([300, 30, 0]);
    expect(bodies.every((body) => body === '{"a":1}')).toBe(true);
    // 200 a second is 20 per 100 ms; autocannon's rate limit sent a second's 200 within the first few ms.
    const start = arrivals[0] ?? 0;
    const perWindow = new Map<number, number>();
    for (const at of arrivals) perWindow.set(Math.floor((at - start) / 100), (perWindow.get(Math.floor((at - start) / 100)) ?? 0) + 1);
    expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(30);
    expect(sample.seconds).toBeGreaterThan(1.4);
  });

  it('times a request from when it was sent, a wait for a busy connection included', async () => {
    // One connection, and every request takes 20 ms: at 100 a second they pile up behind each other.
    const { target } = await listening(() => 20);
    const sample = await runPaced({ server: target, perSecond: 100, seconds: 0.5, connections: 1, next: () => ({ method: 'GET', path: '/x' }) });
    expect(sample.requests).toBe(50);
    expect(sample.p99Ms).toBeGreaterThan(400);
  });
});
