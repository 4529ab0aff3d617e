import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { dueBy, runPaced } from './paced.js';
import { type ServerProcess } from './processes.js';

describe('dueBy, the schedule of a paced load', () => {
  it('spreads a second\'s requests evenly: 200 a second is 20 in every 100 ms, not a burst at the top of the second', () => {
    const perWindow = Array.from({ length: 14 }, (_, window) => dueBy((window + 1) * 100, 200, 300) - dueBy(window * 100, 200, 300));
    expect(perWindow).toEqual(Array.from({ length: 14 }, () => 20));
  });

  it('makes request n due n / perSecond seconds in, the first at the start', () => {
    expect([dueBy(0, 200, 300), dueBy(4.9, 200, 300), dueBy(5, 200, 300), dueBy(995, 200, 300)]).toEqual([1, 1, 2, 200]);
  });

  it('sends nothing before the start, and never more than the load holds, however late a tick comes', () => {
    expect([dueBy(-1, 200, 300), dueBy(1495, 200, 300), dueBy(60_000, 200, 300)]).toEqual([0, 300, 300]);
  });
});

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => {
    if (server === undefined) resolve();
    else server.close(() => { resolve(); });
  });
});

/** An in-process server answering at once, every tenth request with 500, noting each body. */
async function listening(): Promise<{ target: ServerProcess; bodies: string[] }> {
  const bodies: string[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const n = bodies.push(body);
      res.statusCode = n % 10 === 0 ? 500 : 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const target = { name: 'test', url: `http://127.0.0.1:${port}`, pid: process.pid, rssMb: () => 1, cpuMs: () => 0, stop: async () => {} };
  return { target, bodies };
}

describe('runPaced', { timeout: 60_000 }, () => {
  it('sends the whole load, each request as next() made it, and counts the answers that were not 2xx', async () => {
    const { target, bodies } = await listening();
    const sample = await runPaced({ server: target, perSecond: 100, seconds: 0.5, connections: 2, next: () => ({ method: 'POST', path: '/x', body: '{"a":1}' }) });
    expect([sample.requests, sample.non2xx, sample.errors]).toEqual([50, 5, 0]);
    expect(bodies).toEqual(Array.from({ length: 50 }, () => '{"a":1}'));
  });
});
