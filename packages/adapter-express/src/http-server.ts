import { createServer, ServerResponse, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { type Socket } from 'node:net';
import { type Duplex } from 'node:stream';
import { answerClientError, codeOfClientError, type ClientError } from './client-error.js';
import { sendProblem } from './envelope.js';
import { problemFor } from './problem-of.js';
import { type ResponseObserver } from './response-observer.js';

export interface HttpServerOptions {
  /** Told of every answer the server writes outside the app, under the route `unparsed`. */
  readonly onResponse?: ResponseObserver;
}

/**
 * A node:http server for the app that leaves Node no answer of its own to give, so every
 * request gets the contract's envelope: a missing `Host`, an unknown `Expect`, CONNECT and
 * a target that is not a path reach the app like any request, and a parser error is
 * answered once, by the request it belongs to when there is one, never in place of the
 * answer of a request read before it.
 */
export function createHttpServer(app: RequestListener, options: HttpServerOptions = {}): Server {
  // Each socket's latest request and when it began (or when the socket opened): a parser
  // error belongs to that request while it is still being read, and to the bytes after it
  // once it has been read to its end; the time is the duration reported for the parser's answer.
  const latest = new WeakMap<Duplex, LatestRequest>();
  const serve: RequestListener = (req, res) => {
    // `*` or an authority (CONNECT) would slip past Express's routes to its HTML 404.
    if (req.url !== undefined && !req.url.startsWith('/') && !/^[a-z][a-z0-9+.-]*:\/\//iu.test(req.url)) {
      req.url = `/${req.url}`;
    }
    const before = latest.get(req.socket)?.res;
    latest.set(req.socket, { startedAt: performance.now(), req, res });
    if (before !== undefined && !before.writableFinished) runAfter(before, req, res, app);
    else if (staysOpen(req.socket)) app(req, res);
  };
  // Node looks for connections over `headersTimeout` or `requestTimeout` every 30 s by
  // default, so a slow client got its 408 up to 30 s late; once a second keeps it on time.
  const server = createServer({ requireHostHeader: false, connectionsCheckingInterval: 1000 }, serve);
  server.on('connection', (socket: Socket) => latest.set(socket, { startedAt: performance.now() }));
  const answerUnparsed = (error: ClientError, socket: Duplex) => {
    const answered = answerClientError(error, socket, latest.get(socket)?.req !== undefined);
    if (answered === undefined) return;
    const durationMs = performance.now() - (latest.get(socket)?.startedAt ?? performance.now());
    options.onResponse?.({ ...answered, route: 'unparsed', durationMs, keyName: undefined });
  };
  server.on('clientError', (error: ClientError, socket: Duplex) => {
    const { req, res } = latest.get(socket) ?? {};
    if (req !== undefined && res !== undefined && !req.complete) {
      answerUnreadBody(res, error, socket);
    } else if (res !== undefined && !res.writableFinished) {
      // Bytes pipelined after a whole request: that request is carried out, so it is answered
      // with its own result; only then are the bytes answered, and the connection closed.
      res.once('finish', () => {
        answerUnparsed(error, socket);
      });
    } else {
      answerUnparsed(error, socket);
    }
  });
  // Unknown expectations are ignored, as RFC 9110 allows, rather than answered 417.
  server.on('checkExpectation', serve);
  // 100 Continue is sent only when the body is to be read (`readJsonBody`): a request
  // refused before (its key, its role, its media type, its size) gets its refusal alone, and
  // the client never sends the body.
  server.on('checkContinue', serve);
  // Node types the CONNECT socket as a Duplex; on a plain HTTP server it is the net.Socket.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    answerOnSocket(serve, req, socket);
  });
  return server;
}

/**
 * Carries out a request pipelined behind one still being answered once that answer is
 * written, and only if the connection stays open: Node reads the request behind at once,
 * and would run it, but a connection closed by the answer before it (a 413 that leaves its
 * body unread, a 408) never carries its answer, so it must change nothing (RFC 9112 9.6).
 * `serve` drops such a request when that answer was written before it was read.
 */
function runAfter(before: ServerResponse, req: IncomingMessage, res: ServerResponse, app: RequestListener): void {
  before.once('close', () => {
    if (before.writableFinished && staysOpen(req.socket)) app(req, res);
  });
}

/** Whether answers may still be written on `socket`: Node ends it once an answer that closes it is written. */
function staysOpen(socket: Duplex): boolean {
  return !socket.writableEnded && !socket.destroyed;
}

/** A socket's latest request, unset before its first, and when it (or the socket) began. */
interface LatestRequest {
  readonly startedAt: number;
  readonly req?: IncomingMessage;
  readonly res?: ServerResponse;
}

/**
 * The request's own body could not be read, or not in time: it is answered so, unless the app
 * already has (it then changed nothing, having not read the body), and the connection closed.
 */
function answerUnreadBody(res: ServerResponse, error: ClientError, socket: Duplex): void {
  if (!res.headersSent) sendProblem(res, { ...problemFor(codeOfClientError(error)), headers: { Connection: 'close' } });
  if (res.writableFinished) socket.destroy();
  else res.once('finish', () => socket.destroy());
}

/** Lets the app answer a request Node hands over with its bare socket (CONNECT). */
function answerOnSocket(serve: RequestListener, req: IncomingMessage, socket: Socket): void {
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket);
  res.once('finish', () => {
    res.detachSocket(socket);
    socket.end();
  });
  serve(req, res);
}
