import { type ServerResponse } from 'node:http';
import { WorkplanError } from '@workplan/core';
import { HttpFailure } from './http-failure.js';
import { codeOfKind, issueMessages, problems, routeMessages, type ErrorCode } from './problems.js';
import { contextOf } from './request-context.js';

/** Answers `{ success: true, data }`, or `{ success: true }` when there is no data. */
export function sendSuccess(res: ServerResponse, status: number, data?: unknown): void {
  if (res.headersSent) return; // The deadline answered first; the late result is dropped.
  writeJson(res, status, data === undefined ? SUCCESS_WITHOUT_DATA : `{"success":true,"data":${JSON.stringify(data)}}`);
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

/** The answer to a failure: status, body members beyond code and detail, and headers. */
export interface Problem {
  readonly code: ErrorCode;
  readonly extra: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string>>;
}

/** Turns anything thrown while serving a request into the contract's answer. */
export function problemOf(error: unknown): Problem {
  if (error instanceof HttpFailure) return { code: error.code, extra: {}, headers: error.headers };
  if (WorkplanError.is(error)) return domainProblem(error);
  const bodyParserCode = bodyParserCodes[typeOfBodyParserError(error)];
  if (bodyParserCode !== undefined) return { code: bodyParserCode, extra: {}, headers: {} };
  // The router throws a URIError when a path segment holds malformed percent-encoding.
  if (error instanceof URIError) return { code: 'BAD_REQUEST', extra: {}, headers: {} };
  return { code: 'INTERNAL', extra: {}, headers: {} };
}

/** Answers a failure in the envelope, with the operation's message where one matched. */
export function sendProblem(res: ServerResponse, problem: Problem): void {
  const context = contextOf(res);
  const { status, detail } = problems[problem.code];
  for (const [name, value] of Object.entries(problem.headers)) res.setHeader(name, value);
  const body = {
    success: false,
    message: context.message ?? fallbackMessage(status),
    error: { code: problem.code, detail, requestId: context.requestId, ...problem.extra },
  };
  writeJson(res, status, JSON.stringify(body));
}

function domainProblem(error: WorkplanError): Problem {
  switch (error.kind) {
    case 'validation': {
      const issues = error.issues.map(({ field, rule }) => ({ field, message: issueMessages[rule] }));
      return { code: 'VALIDATION_FAILED', extra: { issues }, headers: {} };
    }
    case 'conflict':
      return { code: 'CONFLICT', extra: { existingId: error.existingId }, headers: {} };
    case 'storageUnavailable':
      return { code: 'STORAGE_UNAVAILABLE', extra: {}, headers: { 'Retry-After': '2' } };
    default:
      return { code: codeOfKind[error.kind], extra: {}, headers: {} };
  }
}

/** body-parser's error types, and how each is answered. */
const bodyParserCodes: Readonly<Record<string, ErrorCode>> = {
  'entity.parse.failed': 'INVALID_JSON',
  'entity.verify.failed': 'INVALID_JSON',
  'entity.too.large': 'PAYLOAD_TOO_LARGE',
  'encoding.unsupported': 'UNSUPPORTED_MEDIA_TYPE',
  'charset.unsupported': 'UNSUPPORTED_MEDIA_TYPE',
  'request.aborted': 'BAD_REQUEST',
  'request.size.invalid': 'BAD_REQUEST',
};

function typeOfBodyParserError(error: unknown): string {
  if (typeof error !== 'object' || error === null || !('type' in error)) return '';
  return typeof error.type === 'string' ? error.type : '';
}

function fallbackMessage(status: number): string {
  if (status === 404) return routeMessages.notFound;
  if (status === 405) return routeMessages.methodNotAllowed;
  if (status === 503) return routeMessages.unavailable;
  return routeMessages.badRequest;
}
