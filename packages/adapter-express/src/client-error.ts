import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { type Duplex } from 'node:stream';
import { problems, routeMessages, type ErrorCode } from './problems.js';

/**
 * Answers in the envelope a request Node's HTTP parser refused (bad bytes, an unknown
 * method, headers over the limit), which never reaches Express. For `server.on('clientError')`.
 */
export function answerClientError(error: Error & { code?: string; rawPacket?: unknown }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  // A HEAD request is answered with headers only, even when it could not be read.
  const head = Buffer.isBuffer(error.rawPacket) && error.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
  const code: ErrorCode = error.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'BAD_REQUEST';
  const { status, detail } = problems[code];
  const requestId = randomUUID();
  const body = JSON.stringify({
    success: false,
    message: routeMessages.badRequest,
    error: { code, detail, requestId },
  });
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestId}`,
      'X-Content-Type-Options: nosniff',
      'Connection: close',
      '',
      head ? '' : body,
    ].join('\r\n'),
  );
}
