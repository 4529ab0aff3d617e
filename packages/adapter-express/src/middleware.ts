import { randomUUID } from 'node:crypto';
import { MIMEType } from 'node:util';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { type ApiKeys } from './api-keys.js';
import { HttpFailure } from './http-failure.js';
import { beginContext, contextOf } from './request-context.js';
import { observeResponse, type ResponseObserver } from './response-observer.js';

/** The contract's body size limit. */
export const BODY_LIMIT_BYTES = 16 * 1024;

const VISIBLE_ASCII_ID = /^[\x21-\x7E]{1,128}$/u;

/**
 * Gives the request its id (the caller's when well formed) and the headers every answer
 * carries, and has `observe` told of the answer.
 */
export function identifyRequest(observe?: ResponseObserver): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && VISIBLE_ASCII_ID.test(given) ? given : randomUUID();
    beginContext(res, requestId);
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (observe !== undefined) observeResponse(req, res, observe);
    next();
  };
}

/** Names the operation the route matched, so every failure from here on carries its message. */
export function operation(message: string, route: string): RequestHandler {
  return (_req, res, next) => {
    const context = contextOf(res);
    context.message = message;
    context.route = route;
    next();
  };
}

/** Lets through only a request with exactly one `KEY` header holding a configured key. */
export function requireKey(keys: ApiKeys): RequestHandler {
  return (req, res, next) => {
    const sent = onlyKeyHeader(req.rawHeaders);
    const fingerprint = sent === undefined ? undefined : keys.identify(sent);
    if (fingerprint === undefined) {
      next(new HttpFailure('UNAUTHORIZED'));
      return;
    }
    contextOf(res).keyFingerprint = fingerprint;
    next();
  };
}

/**
 * The value of the request's `KEY` header when it has exactly one; read from the raw list,
 * since Node joins repeated unknown headers into one value and `headersDistinct` builds a
 * copy of every header to answer for one.
 */
function onlyKeyHeader(rawHeaders: readonly string[]): string | undefined {
  let found: string | undefined;
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (name.length === 3 && name.toLowerCase() === 'key') {
      found = rawHeaders[i + 1];
      count += 1;
    }
  }
  return count === 1 ? found : undefined;
}

/** Refuses a body that is not JSON in UTF-8 without a content encoding. */
export function requireJsonMediaType(req: Request, _res: Response, next: NextFunction): void {
  next(isJsonInUtf8(req) ? undefined : new HttpFailure('UNSUPPORTED_MEDIA_TYPE'));
}

function isJsonInUtf8(req: Request): boolean {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return false;
  const declared = req.headers['content-type'];
  if (declared === undefined) return false;
  let mediaType: MIMEType;
  try {
    mediaType = new MIMEType(declared);
  } catch {
    return false; // An unparseable Content-Type names no JSON media type.
  }
  const charset = mediaType.params.get('charset');
  const json = mediaType.essence === 'application/json' || /^application\/[^/]+\+json$/u.test(mediaType.essence);
  return json && (charset === null || charset.toLowerCase() === 'utf-8');
}

/** An empty body is not a JSON document; body-parser would otherwise read it as `{}`. */
class EmptyBodyError extends Error {
  readonly type = 'entity.verify.failed';
}

/**
 * Refuses a body whose declared length is over the limit before reading any of it
 * (body-parser would read it all first), closing the connection so the rest is never read.
 */
function refuseDeclaredOversize(req: Request, res: Response, next: NextFunction): void {
  const declared = Number(req.headers['content-length']);
  if (declared > BODY_LIMIT_BYTES) {
    res.setHeader('Connection', 'close');
    next(new HttpFailure('PAYLOAD_TOO_LARGE'));
    return;
  }
  next();
}

/** Reads the JSON document: size limit, then syntax; any JSON value, the core judges its shape. */
export const readJsonBody: RequestHandler[] = [
  refuseDeclaredOversize,
  express.json({
    limit: BODY_LIMIT_BYTES,
    strict: false,
    inflate: false,
    type: () => true,
    verify: (_req, _res, buffer) => {
      if (buffer.length === 0) throw new EmptyBodyError('empty body');
    },
  }),
  (req, _res, next) => {
    // No body at all (no length, not chunked) leaves req.body unset.
    next(req.body === undefined ? new HttpFailure('INVALID_JSON') : undefined);
  },
];
