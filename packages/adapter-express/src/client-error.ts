import { randomUUID } from 'node:crypto';
import { METHODS, STATUS_CODES } from 'node:http';
import { type Duplex } from 'node:stream';
import { problemJson } from './envelope.js';
import { problems, routeMessages, type ErrorCode } from './problems.js';
import { type AnsweredRequest } from './response-observer.js';

/** An error Node raises on a connection: its parser's, or its header and request timers'. */
export type ClientError = Error & { code?: string; rawPacket?: unknown };

/** What a connection's error is answered with. */
export function codeOfClientError(error: ClientError): ErrorCode {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 'HEADERS_TOO_LARGE';
  // Node's `headersTimeout` and `requestTimeout`: the client, not the storage, was slow.
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'REQUEST_TIMEOUT';
  return 'BAD_REQUEST';
}

/** What logs and metrics learn of an answer written outside the app, beyond its route and time. */
export type UnparsedAnswer = Pick<AnsweredRequest, 'requestId' | 'method' | 'status' | 'code'>;

/**
 * Answers in the envelope a request Node's HTTP parser refused (bad bytes, an unknown
 * method, headers over the limit or too slow), which never reaches Express, and says what
 * it answered; nothing when the connection could not be written to. For `server.on('clientError')`.
 * `afterRequest`: the connection carried a request before; the bytes Node hands over may
 * then begin with that one's, so the method is not read from them.
 */
export function answerClientError(error: ClientError, socket: Duplex, afterRequest: boolean): UnparsedAnswer | undefined {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return undefined;
  }
  const method = afterRequest ? 'unknown' : methodOf(error.rawPacket);
  const code = codeOfClientError(error);
  const { status } = problems[code];
  const requestId = randomUUID();
  const body = problemJson(code, routeMessages.badRequest, requestId);
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestId}`,
      'X-Content-Type-Options: nosniff',
      'Connection: close',
      '',
      // A HEAD request is answered with headers only, even when it could not be read.
      method === 'HEAD' ? '' : body,
    ].join('\r\n'),
  );
  return { requestId, method, status, code };
}

/**
 * The method of the bytes the parser refused when it is one Node knows, else `unknown`:
 * logs and metric labels never carry what a client made up.
 */
function methodOf(rawPacket: unknown): string {
  if (!Buffer.isBuffer(rawPacket)) return 'unknown';
  const word = rawPacket.subarray(0, 16).toString('latin1').split(' ', 1)[0] ?? '';
  return METHODS.includes(word) ? word : 'unknown';
}
