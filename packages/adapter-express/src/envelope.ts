import { type ServerResponse } from 'node:http';
import { type Problem } from './problem-of.js';
import { headersOf, problems, routeMessages, type ErrorCode } from './problems.js';
import { contextOf } from './request-context.js';

/** Answers `{ success: true, data }`, or `{ success: true }` when there is no data. */
export function sendSuccess(res: ServerResponse, status: number, data?: unknown): void {
  if (answeredAlready(res)) return;
  writeJson(res, status, data === undefined ? SUCCESS_WITHOUT_DATA : successJson(JSON.stringify(data)));
}

/**
 * Answers `{ success: true, data }` where `dataJson` is the data already written as JSON:
 * as text, or as UTF-8 parts in order (a page of changes, written a piece at a time),
 * written between the envelope's own bytes.
 */
export function sendSuccessJson(res: ServerResponse, status: number, dataJson: string | readonly Uint8Array[]): void {
  if (answeredAlready(res)) return;
  if (typeof dataJson === 'string') writeJson(res, status, successJson(dataJson));
  else writeJsonBytes(res, status, [SUCCESS_OPEN_BYTES, ...dataJson, SUCCESS_CLOSE_BYTES]);
}

const SUCCESS_OPEN = '{"success":true,"data":';
const SUCCESS_CLOSE = '}';
const SUCCESS_OPEN_BYTES = Buffer.from(SUCCESS_OPEN);
const SUCCESS_CLOSE_BYTES = Buffer.from(SUCCESS_CLOSE);

/** The envelope of a success around data already written as JSON. */
export function successJson(dataJson: string): string {
  return `${SUCCESS_OPEN}${dataJson}${SUCCESS_CLOSE}`;
}

/** Answers 304: the caller's copy, named by `ETag`, is still current; no body. */
export function sendNotModified(res: ServerResponse, entityTag: string): void {
  if (answeredAlready(res)) return;
  res.statusCode = 304;
  res.setHeader('ETag', entityTag);
  res.end();
}

/** True, after handing the late result over to be dropped, when the deadline answered first. */
function answeredAlready(res: ServerResponse): boolean {
  if (!res.headersSent) return false;
  contextOf(res).dropLateResult?.();
  return true;
}

const SUCCESS_WITHOUT_DATA = JSON.stringify({ success: true });
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Writes a whole JSON answer with Node's own calls. Express's `res.json` would also look up
 * settings, negotiate a charset and check freshness for an ETag this service never sends:
 * work per request with a result known in advance. HEAD gets the same headers, no body.
 */
function writeJson(res: ServerResponse, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/**
 * Writes a JSON answer given as bytes, in parts: Node holds the parts written in one step
 * and sends them with the headers in one system call. HEAD gets the same headers, no body.
 */
function writeJsonBytes(res: ServerResponse, status: number, parts: readonly Uint8Array[]): void {
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  res.setHeader('Content-Length', parts.reduce((length, part) => length + part.length, 0));
  const last = parts.length - 1;
  for (let i = 0; i < last; i += 1) res.write(parts[i]);
  res.end(parts[last]);
}

/**
 * Answers a failure in the envelope: the table's status, detail and headers, the
 * problem's own members and headers, and the operation's message where one matched.
 */
export function sendProblem(res: ServerResponse, problem: Problem): void {
  const context = contextOf(res);
  context.problemCode = problem.code;
  const { status, routeMessage } = problems[problem.code];
  for (const [name, value] of Object.entries({ ...headersOf(problem.code), ...problem.headers })) res.setHeader(name, value);
  const message = context.message ?? routeMessage ?? routeMessages.badRequest;
  writeJson(res, status, problemJson(problem.code, message, context.requestId, problem.members, problem.detail));
}

/**
 * The contract's body of a failure, as JSON: the operation's `message`, and the code, the
 * detail (the table's unless the problem has its own), the request id and any members of
 * the problem's own under `error`.
 */
export function problemJson(
  code: ErrorCode,
  message: string,
  requestId: string,
  members: Readonly<Record<string, unknown>> = {},
  detail = problems[code].detail,
): string {
  return JSON.stringify({ success: false, message, error: { code, detail, requestId, ...members } });
}
