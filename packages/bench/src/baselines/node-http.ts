// Baseline (a): bare node:http answering the service's routes with fixed records in the
// envelope. Nothing is stored, checked or logged: the ceiling one process on one core gives.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenFromEnv, type BareRecord } from './listen.js';

const stamp = '2026-01-01T00:00:00.000Z';
const fixed = (id: string, value = 'Escala 12x36'): BareRecord => ({ id, value, createdAt: stamp, updatedAt: stamp });
const page = Array.from({ length: 1000 }, (_, i) => fixed(`0190a0b0-0000-7000-8000-${String(i).padStart(12, '0')}`));

const ONE = /^\/api\/v1\/scale\/([^/?]+)$/u;

// Event streams held open (GET /api/v1/changes asking for text/event-stream): each create is
// written to every one as an event before it is answered, the floor of a write's fan-out.
const streams = new Set<ServerResponse>();
let changes = 0;

function hold(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  res.flushHeaders();
  streams.add(res);
  req.socket.once('close', () => streams.delete(res));
}

function tellStreams(record: BareRecord): void {
  if (streams.size === 0) return;
  changes += 1;
  const change = { id: String(changes), resource: 'scale', recordId: record.id, action: 'create', at: stamp, by: 'bench', data: record, previous: null };
  const event = `id: ${changes}\ndata: ${JSON.stringify(change)}\n\n`;
  for (const res of streams) res.write(event);
}
const LIST = /^\/api\/v1\/scales\/([0-9]+)\/([0-9]+)$/u;

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function withValue(req: IncomingMessage, answer: (value: string) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { value?: unknown };
    answer(typeof body.value === 'string' ? body.value : '');
  });
}

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const one = ONE.exec(url);
  if (one?.[1] !== undefined) {
    const id = one[1];
    if (req.method === 'GET') send(res, 200, { success: true, data: fixed(id) });
    else if (req.method === 'PUT') withValue(req, (value) => { send(res, 200, { success: true, data: fixed(id, value) }); });
    else if (req.method === 'DELETE') send(res, 200, { success: true });
    else send(res, 405, { success: false });
    return;
  }
  const list = LIST.exec(url);
  if (list !== null && req.method === 'GET') {
    send(res, 200, { success: true, data: page.slice(0, Number(list[2])) });
    return;
  }
  if (url.startsWith('/api/v1/changes') && req.method === 'GET' && req.headers.accept === 'text/event-stream') {
    hold(req, res);
    return;
  }
  if (url === '/api/v1/scale' && req.method === 'POST') {
    withValue(req, (value) => {
      const record = fixed(randomUUID(), value);
      tellStreams(record);
      res.setHeader('location', `/api/v1/scale/${record.id}`);
      send(res, 201, { success: true, data: record });
    });
    return;
  }
  send(res, 404, { success: false });
});

listenFromEnv(server);
