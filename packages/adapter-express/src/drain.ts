import { once } from 'node:events';
import { type Server, type ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import { letGo } from './held-open.js';
import { onResponseEnd } from './request-context.js';

/** How long a connection idle at the drain may still deliver a request already sent. */
const IDLE_GRACE_MS = 100;

/** What a drain had to cut short when its time ran out: nothing when all ended in time. */
export interface CutShort {
  /** Requests still unanswered. */
  readonly requests: number;
  /** Connections still open, those of these requests included (a client that sends nothing holds one). */
  readonly connections: number;
}

/** Closes the server as SIGTERM asks, within `timeoutMs`; resolves with what was cut short. */
export type Drain = (timeoutMs: number) => Promise<CutShort>;

/**
 * Makes `server` drainable: from the drain on it takes no connection, closes idle ones at
 * once, answers each request in flight (and any that arrives on an open connection) with
 * `Connection: close` so its connection ends with its answer (a request held open for
 * changes answers what it has at once), and when `timeoutMs` runs out
 * closes whatever is still open, so a client holding a connection cannot hold the process.
 */
export function drainable(server: Server): Drain {
  const sockets = new Set<Socket>();
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const track = (_req: unknown, res: ServerResponse): void => {
    inFlight.add(res);
    onResponseEnd(res, 'close', () => inFlight.delete(res));
    if (draining) closeWithAnswer(res);
  };
  // Node hands a request with an `Expect` header over as one of these instead of `request`
  // when the server listens for them (createHttpServer does).
  for (const event of ['request', 'checkContinue', 'checkExpectation']) server.on(event, track);
  return async (timeoutMs) => {
    draining = true;
    for (const res of inFlight) closeWithAnswer(res);
    const closed = once(server, 'close');
    // Stop taking connections now, but close the idle ones a moment later: a request already
    // on its way on a keep-alive connection is then read and answered (with `Connection:
    // close`). Closed at once, its connection would hold unread bytes, and closing a socket
    // with unread bytes sends the client a reset. (`http.Server#close` closes idle
    // connections at once, so the listening socket is closed with net's own `close`.)
    net.Server.prototype.close.call(server);
    await new Promise((resolve) => setTimeout(resolve, IDLE_GRACE_MS));
    server.closeIdleConnections();
    let cut: CutShort = { requests: 0, connections: 0 };
    // `timeoutMs` counts from the drain's start, the grace included.
    const timer = setTimeout(() => {
      cut = { requests: inFlight.size, connections: sockets.size };
      server.closeAllConnections();
      // A socket Node does not count as an HTTP connection yet (nothing read) is closed too.
      for (const socket of sockets) socket.destroy();
    }, Math.max(0, timeoutMs - IDLE_GRACE_MS));
    await closed;
    clearTimeout(timer);
    return cut;
  };
}

/**
 * Asks Node to close the connection once this answer is written, if it is not written yet,
 * and ends the wait of a request held open (a long poll answers at once, a stream ends).
 */
function closeWithAnswer(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
  letGo(res);
}
