import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { type AddressInfo, type Socket } from 'node:net';

/** One POST a receiver was sent, and what it answered (`hang` and `reset` gave no answer). */
export interface ReceivedPost {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly answer: ReceiverAnswer;
}

/** How a receiver answers a POST: a status (with headers, after a delay), never at all, or by resetting the connection. */
export type ReceiverAnswer =
  | { readonly status: number; readonly headers?: Readonly<Record<string, string>>; readonly delayMs?: number }
  | 'hang'
  | 'reset';

/** A webhook receiver on 127.0.0.1 that keeps what it is sent, for tests. */
export interface WebhookReceiver {
  readonly url: string;
  readonly port: number;
  /** Every POST, in the order they arrived. */
  readonly posts: readonly ReceivedPost[];
  /** The most POSTs it was ever answering at once. */
  readonly peakInFlight: number;
  /** Decides how the next POSTs are answered; 204 by default. */
  answerWith(answer: (body: string, index: number) => ReceiverAnswer): void;
  /** Resolves once `ready()` holds, checking at each POST; rejects after `timeoutMs`. */
  until(ready: (posts: readonly ReceivedPost[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Stops listening and cuts every connection, hanging ones included. */
  close(): Promise<void>;
}

/** Starts a receiver on `port` of 127.0.0.1 (any free port by default). */
export async function startReceiver(port = 0): Promise<WebhookReceiver> {
  const posts: ReceivedPost[] = [];
  const sockets = new Set<Socket>();
  const waiters = new Set<() => void>();
  let answer: (body: string, index: number) => ReceiverAnswer = () => ({ status: 204 });
  let inFlight = 0;
  let peakInFlight = 0;
  const server = createServer((req, res) => {
    inFlight += 1;
    peakInFlight = Math.max(peakInFlight, inFlight);
    res.on('close', () => (inFlight -= 1));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const given = answer(body, posts.length);
      posts.push({ headers: req.headers, body, answer: given });
      reply(res, given);
      for (const wake of waiters) wake();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/hooks`,
    port: bound,
    posts,
    get peakInFlight() {
      return peakInFlight;
    },
    answerWith: (next) => {
      answer = next;
    },
    until: (ready, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (!ready(posts)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the receiver did not get what was awaited in ${timeoutMs} ms (${posts.length} POSTs)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: async () => {
      const closed = once(server, 'close');
      server.close();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

function reply(res: ServerResponse, answer: ReceiverAnswer): void {
  if (answer === 'hang') return;
  if (answer === 'reset') {
    res.socket?.resetAndDestroy();
    return;
  }
  setTimeout(() => res.writeHead(answer.status, answer.headers).end(), answer.delayMs ?? 0);
}
