import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runApp, send } from '@workplan/testing';
import { describe, expect, it } from 'vitest';

// Hostile conditions of issue 12 whose fault lives in Node's HTTP parser or in the process's
// lifetime: met by the built app (`pnpm build` first) as a process of its own, over raw sockets.

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const key = 'process-key-0123456789';

function run(env: Record<string, string> = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'workplan-hostile-'));
  return runApp(main, { PORT: '0', HOST: '127.0.0.1', API_KEYS: key, STORAGE: 'memory', NODE_ENV: 'test', ...env }, { cwd });
}

/** A raw connection to `url`, with everything the server wrote on it and whether it closed. */
interface RawConnection {
  readonly socket: Socket;
  received(): string;
  readonly closed: Promise<string>;
}

function open(url: string): Promise<RawConnection> {
  const { port, hostname } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  socket.on('error', () => undefined); // The outcome is read from `closed` and `received`.
  const closed = new Promise<string>((resolve) => socket.once('close', () => { resolve(received); }));
  return new Promise((resolve) => socket.once('connect', () => { resolve({ socket, received: () => received, closed }); }));
}

/** Resolves once `url` refuses connections: a stopping app has closed its listener and begun to drain. */
async function untilRefusing(url: string): Promise<void> {
  const { port, hostname } = new URL(url);
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), hostname);
      socket.once('connect', () => { socket.destroy(); resolve(false); });
      socket.once('error', () => { resolve(true); });
    });
    if (refused) return;
    await sleep(20);
  }
  throw new Error(`${url} still took connections 20 s after the stop`);
}

/** The status codes of every answer in `raw`, in order. */
function statusesOf(raw: string): number[] {
  return [...raw.matchAll(/HTTP\/1\.1 (\d{3}) /gu)].map((m) => Number(m[1]));
}

function requestLines(app: ReturnType<typeof run>): Record<string, unknown>[] {
  return app
    .output()
    .split('\n')
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the app as a process, under hostile conditions', () => {
  it(
    'hostile 10: slow headers and bodies are 408 REQUEST_TIMEOUT, and every answer the parser refuses is logged and counted',
    async () => {
      const app = run({ REQUEST_TIMEOUT_MS: '500' });
      const url = await app.listening();
      // Headers that never end, and a body trickled slower than the request deadline.
      const slowHeaders = await open(url);
      slowHeaders.socket.write('GET /api/v1/scales HTTP/1.1\r\nHost: x\r\n');
      const slowBody = await open(url);
      slowBody.socket.write(
        `POST /api/v1/scale HTTP/1.1\r\nHost: x\r\nKEY: ${key}\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"value":`,
      );
      const refused = await open(url);
      refused.socket.write('GET /api/v1/scales HTTP/1.1\r\nHost: x\r\nKE\x01Y: a\r\n\r\n');

      const body = await slowBody.closed;
      expect(statusesOf(body)).toEqual([408]);
      expect(body).toContain('"code":"REQUEST_TIMEOUT"');
      expect(body).toContain('"message":"Não foi possível criar a escala de trabalho."');
      expect(statusesOf(await refused.closed)).toEqual([400]);
      const headers = await slowHeaders.closed;
      expect(statusesOf(headers)).toEqual([408]);
      expect(headers).toContain('"code":"REQUEST_TIMEOUT"');
      expect(headers).toContain('"message":"Requisição inválida."');

      // The log is written asynchronously.
      const lines = () => requestLines(app);
      await expect.poll(() => lines().filter((l) => l.route === 'unparsed').map((l) => l.status).sort(), { timeout: 10_000 }).toEqual([400, 408]);
      await expect.poll(() => lines().filter((l) => l.route === '/api/v1/scale').map((l) => l.status), { timeout: 10_000 }).toEqual([408]);
      const metrics = (await send(url, { path: '/metrics' })).text;
      expect(metrics).toMatch(/workplan_http_request_duration_seconds_count\{method="[A-Z]+",route="unparsed",status="400"\} 1/u);
      expect(metrics).toMatch(/workplan_http_request_duration_seconds_count\{method="[A-Za-z]+",route="unparsed",status="408"\} 1/u);
      expect(metrics).not.toContain('workplan_storage_unavailable_total 1');
      expect(await app.stop()).toBe(0);
    },
    30_000,
  );

  it('hostile 2: a write pipelined before unreadable bytes is answered with its own result, then the bytes with theirs', async () => {
    const app = run({ LOG_LEVEL: 'silent' });
    const url = await app.listening();
    const trailers = [
      ['a garbage line', 'GARBAGE\r\n\r\n', 400],
      ['a NUL in a header', 'GET /api/v1/scales HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n', 400],
      ['an oversized header', `GET /api/v1/scales HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ] as const;
    for (const [name, trailer, status] of trailers) {
      const body = JSON.stringify({ value: `pipelined before ${name}` });
      const post = `POST /api/v1/scale HTTP/1.1\r\nHost: x\r\nKEY: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      const connection = await open(url);
      connection.socket.write(post + trailer);
      const answered = await connection.closed;
      const stored = (await send(url, { path: '/api/v1/scales', headers: { key } })).text.includes(`pipelined before ${name}`);
      expect({ name, statuses: statusesOf(answered), stored }).toEqual({ name, statuses: [201, status], stored: true });
    }
    expect(await app.stop()).toBe(0);
  });

  it('hostile 2b: a request pipelined behind an answer that closes the connection is not carried out; one behind a kept-alive answer is', async () => {
    const app = run({ LOG_LEVEL: 'silent' });
    const url = await app.listening();
    const post = (value: string) => {
      const body = JSON.stringify({ value });
      return `POST /api/v1/scale HTTP/1.1\r\nHost: x\r\nKEY: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    const stored = async (value: string) => (await send(url, { path: '/api/v1/scales', headers: { key } })).text.includes(`"${value}"`);

    // Over the body limit: answered 413 with Connection: close, its body left unread.
    const closing = await open(url);
    closing.socket.write(post('x'.repeat(17_000)) + post('behind a 413'));
    expect(statusesOf(await closing.closed)).toEqual([413]);
    expect(await stored('behind a 413')).toBe(false);

    const kept = await open(url);
    kept.socket.write(post('first of two') + post('second of two') + 'GET /api/v1/scales HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(statusesOf(await kept.closed)).toEqual([201, 201, 401]);
    expect([await stored('first of two'), await stored('second of two')]).toEqual([true, true]);
    expect(await app.stop()).toBe(0);
  });

  it('hostile 2c: Expect: 100-continue is answered 100 only once the body is to be read; a request refused before it gets its refusal alone', async () => {
    const app = run({ LOG_LEVEL: 'silent', SHUTDOWN_TIMEOUT_MS: '60000' });
    const url = await app.listening();
    const body = JSON.stringify({ value: 'sent after 100' });
    const head = (sent: string) =>
      `POST /api/v1/scale HTTP/1.1\r\nHost: x\r\nKEY: ${sent}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`;

    const refused = await open(url);
    refused.socket.write(head('wrong-key-0123456789'));
    while (statusesOf(refused.received()).length === 0) await sleep(10);
    expect(statusesOf(refused.received())).toEqual([401]);
    refused.socket.destroy();

    const accepted = await open(url);
    accepted.socket.write(head(key));
    while (statusesOf(accepted.received()).length === 0) await sleep(10);
    expect(statusesOf(accepted.received())).toEqual([100]);
    accepted.socket.write(body);
    expect(statusesOf(await accepted.closed)).toEqual([100, 201]);

    // No 1xx answer to an HTTP/1.0 client, which sends its body without waiting.
    const older = await open(url);
    // Each body below is as long as the first, the length the head declares.
    older.socket.write(`${head(key).replace('HTTP/1.1', 'HTTP/1.0')}${body.replace('sent after 100', 'sent by 1.0 ok')}`);
    expect(statusesOf(await older.closed)).toEqual([201]);

    // One waiting for its 100 when the service stops is drained as any request is: answered with Connection: close.
    const waiting = await open(url);
    waiting.socket.write(head(key).replace('Connection: close\r\n', ''));
    while (statusesOf(waiting.received()).length === 0) await sleep(10);
    app.child.kill('SIGTERM');
    await untilRefusing(url);
    waiting.socket.write(body.replace('sent after 100', 'sent when stop'));
    const drained = await waiting.closed;
    expect(statusesOf(drained)).toEqual([100, 201]);
    expect(drained).toMatch(/\r\nConnection: close\r\n/iu);
    // Its shutdown timeout outlasts the test: exited at all, the drain ended with the request.
    const [code] = await app.exited;
    expect(code).toBe(0);
  });

  it(
    'hostile 3: SIGTERM closes idle connections at once, answers requests in flight with Connection: close, and exits 0 within SHUTDOWN_TIMEOUT_MS',
    async () => {
      const app = run({ SHUTDOWN_TIMEOUT_MS: '1500' });
      const url = await app.listening();
      const get = `GET /api/v1/scales HTTP/1.1\r\nHost: x\r\nKEY: ${key}\r\n\r\n`;
      // 32 keep-alive connections, each with one request answered; one silent socket; one
      // request whose body ends during the drain; one whose body never ends, so it is still
      // in flight when the timeout comes.
      const kept = await Promise.all(Array.from({ length: 32 }, () => open(url)));
      for (const connection of kept) connection.socket.write(get);
      while (kept.some((c) => statusesOf(c.received()).length === 0)) await sleep(10);
      const silent = await open(url);
      const post = (length: number) =>
        `POST /api/v1/scale HTTP/1.1\r\nHost: x\r\nKEY: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{`;
      const stuck = await open(url);
      stuck.socket.write(post(40));
      const finishing = await open(url);
      finishing.socket.write(post('{"value":"drain"}'.length));
      await sleep(100);

      app.child.kill('SIGTERM');
      // Each keep-alive client sends at once; it must see an answer, or the connection closed
      // before it sent anything, never a reset.
      const outcomes = kept.map((connection) => {
        const endedBefore = connection.socket.readableEnded;
        if (!endedBefore) connection.socket.write(get);
        let reset = false;
        connection.socket.on('error', () => (reset = true));
        return connection.closed.then((received) => ({ endedBefore, reset, answers: statusesOf(received).length - 1 }));
      });
      await untilRefusing(url);
      finishing.socket.write('"value":"drain"}');
      // The stuck request never ends: exited at all, the app cut it short at SHUTDOWN_TIMEOUT_MS
      // (by its own clock; its log says so below), not a time measured here.
      const [code] = await app.exited;
      expect(code).toBe(0);
      for (const outcome of await Promise.all(outcomes)) {
        expect(outcome.reset).toBe(false);
        if (!outcome.endedBefore) expect(outcome.answers).toBe(1);
      }
      // The request in flight is answered, and its connection closed with it.
      const finished = await finishing.closed;
      expect(statusesOf(finished)).toEqual([201]);
      expect(finished).toMatch(/\r\nConnection: close\r\n/iu);
      await Promise.all([silent.closed, stuck.closed]);
      expect(app.output()).toMatch(/cut short/u);
    },
    30_000,
  );
});
