import { type RequestHandler } from 'express';
import { type ApiKeys } from './api-keys.js';
import { HttpFailure } from './http-failure.js';
import { contextOf } from './request-context.js';

/**
 * Notes the name and role of the request's key when it sends exactly one `KEY` header
 * holding a configured key, and refuses nothing: the rate limits between this and
 * `requireKey` must know whether the key is valid before the request is refused or counted.
 */
export function identifyKey(keys: ApiKeys): RequestHandler {
  return (req, res, next) => {
    const sent = onlyKeyHeader(req.rawHeaders);
    const holder = sent === undefined ? undefined : keys.identify(sent);
    if (holder !== undefined) contextOf(res).key = holder;
    next();
  };
}

/** Lets through only a request that `identifyKey` found a valid key in. */
export const requireKey: RequestHandler = (_req, res, next) => {
  next(contextOf(res).key === undefined ? new HttpFailure('UNAUTHORIZED') : undefined);
};

/** The methods a `read` key may use: they change nothing. */
const readMethods: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * Refuses a `read` key anything but GET and HEAD, before the body is read: a read key
 * learns nothing about the body it sent, and costs no reading of it.
 */
export const requireRole: RequestHandler = (req, res, next) => {
  const forbidden = contextOf(res).key?.role === 'read' && !readMethods.has(req.method);
  next(forbidden ? new HttpFailure('FORBIDDEN') : undefined);
};

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
