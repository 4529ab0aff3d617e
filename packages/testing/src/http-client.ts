import { request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

/** An answer as the wire gave it, with its body parsed when it is JSON. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  readonly json: unknown;
}

export interface HttpCall {
  readonly method?: string;
  /** Sent exactly as written: no normalisation, no re-encoding. */
  readonly path: string;
  /** An array value sends the header once per element. */
  readonly headers?: OutgoingHttpHeaders;
  readonly body?: string | Buffer | undefined;
}

/** Sends one request with node:http, which leaves paths and repeated headers as given. */
export function send(baseUrl: string, call: HttpCall): Promise<HttpAnswer> {
  const url = new URL(baseUrl);
  // Node frames no body of a GET or DELETE by itself; unframed bytes would read as a second request.
  const length = call.body === undefined ? {} : { 'content-length': Buffer.byteLength(call.body) };
  const headers = { ...length, ...call.headers };
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: url.hostname, port: url.port, method: call.method ?? 'GET', path: call.path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parseJson(text) });
        });
        res.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(call.body);
  });
}

/** Writes raw bytes on a socket and resolves everything the server answers before closing. */
export function sendRaw(baseUrl: string, bytes: string | Buffer): Promise<HttpAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      resolve(parseRawAnswer(Buffer.concat(chunks).toString('utf8')));
    });
  });
}

function parseRawAnswer(raw: string): HttpAnswer {
  const [head = '', text = ''] = raw.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: IncomingHttpHeaders = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, text, json: parseJson(text) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // Not every answer has a JSON body (HEAD, 204); tests assert on that.
  }
}

/** Resolves once `GET /health/ready` answers 200: the storage answers and is set up. */
export async function untilReady(baseUrl: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await send(baseUrl, { path: '/health/ready' })).status !== 200) {
    if (Date.now() > deadline) throw new Error(`${baseUrl} not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
