import { type RequestHandler } from 'express';
import { type ApiKeys } from './api-keys.js';
import { HttpFailure } from './http-failure.js';
import { contextOf } from './request-context.js';

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
