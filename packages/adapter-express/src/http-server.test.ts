import { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer } from './http-server.js';
import { type AnsweredRequest } from './response-observer.js';

/** Sends `raw` on a new connection to `server`; resolves everything written back once the server closes it. */
async function exchange(server: Server, raw: string): Promise<string> {
  const { port } = server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  socket.write(raw);
  await new Promise((closed) => socket.once('close', closed));
  return received;
}

const get = (path: string, headers = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\n${headers}\r\n`;

describe('createHttpServer with requests pipelined on one connection', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((closed) => {
      if (server === undefined) closed();
      else server.close(() => {
        closed();
      });
    });
  });

  /** A server whose app answers each path after `delays[path]` ms, closing the connection where `closes` says; records what it carried out. */
  async function serving(delays: Record<string, number>, closes: readonly string[]): Promise<string[]> {
    const carriedOut: string[] = [];
    server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
      const path = req.url ?? '';
      carriedOut.push(path);
      setTimeout(() => {
        if (closes.includes(path)) res.setHeader('Connection', 'close');
        res.end(path);
        carriedOut.push(`answered ${path}`);
      }, delays[path] ?? 0);
    });
    await new Promise<void>((listening) => server?.listen(0, '127.0.0.1', listening));
    return carriedOut;
  }

  it('carries out a request behind a slow answer only once that answer is written, in order', async () => {
    const carriedOut = await serving({ '/slow': 50 }, []);
    const received = await exchange(server as Server, get('/slow') + get('/fast') + get('/last', 'Connection: close\r\n'));
    expect([...received.matchAll(/\r\n\r\n(\/[a-z]+)/gu)].map((body) => body[1])).toEqual(['/slow', '/fast', '/last']);
    expect(carriedOut).toEqual(['/slow', 'answered /slow', '/fast', 'answered /fast', '/last', 'answered /last']);
  });

  it('does not carry out a request pipelined behind an answer that closes the connection', async () => {
    const carriedOut = await serving({ '/closing': 50 }, ['/closing']);
    const received = await exchange(server as Server, get('/closing') + get('/behind'));
    expect(received.match(/HTTP\/1\.1 \d+/gu)).toHaveLength(1);
    expect(carriedOut).toEqual(['/closing', 'answered /closing']);
  });

  it('does not carry out a request read after an answer that closed the connection was written', async () => {
    const carriedOut = await serving({}, ['/closing']);
    const received = await exchange(server as Server, get('/closing') + get('/behind'));
    expect(received.match(/HTTP\/1\.1 \d+/gu)).toHaveLength(1);
    expect(carriedOut).toEqual(['/closing', 'answered /closing']);
  });
});

describe('createHttpServer telling of the answers Node’s parser made it give', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((closed) => {
      if (server === undefined) closed();
      else server.close(() => {
        closed();
      });
    });
  });

  async function observing(): Promise<AnsweredRequest[]> {
    const answered: AnsweredRequest[] = [];
    const app = (_req: IncomingMessage, res: ServerResponse): void => {
      res.end('ok');
    };
    server = createHttpServer(app, { onResponse: (answer) => { answered.push(answer); } });
    await new Promise<void>((listening) => server?.listen(0, '127.0.0.1', listening));
    return answered;
  }

  it('names the method of a request it could not read, on a connection of its own', async () => {
    const answered = await observing();
    await exchange(server as Server, 'GET /api HTTP/1.1\r\nHost: a\r\nX: a\0b\r\n\r\n');
    expect(answered.map(({ method, route, status }) => ({ method, route, status }))).toEqual([{ method: 'GET', route: 'unparsed', status: 400 }]);
  });

  it('never names the method of the request before it on the connection', async () => {
    const answered = await observing();
    await exchange(server as Server, 'DELETE /x HTTP/1.1\r\nHost: x\r\n\r\nGET /api HTTP/1.1\r\nHost: a\r\nX: a\0b\r\n\r\n');
    expect(answered.map(({ method, route, status }) => ({ method, route, status }))).toEqual([{ method: 'unknown', route: 'unparsed', status: 400 }]);
  });
});
