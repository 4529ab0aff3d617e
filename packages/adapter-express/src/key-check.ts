import { type RequestHandler } from 'express';
import { type ApiKeys } from './api-keys.js';
import { HttpFailure } from './http-failure.js';
import { contextOf } from './request-context.js';

/**
 * Notes the fingerprint of the request's key when it sends exactly one `KEY` header holding
 * a configured key, and refuses nothing: the rate limits between this and `requireKey` must
 * know whether the key is valid before the request is refused or counted.
 */
export function identifyKey(keys: ApiKeys): RequestHandler {
  return (req, res, next) => {
    const sent = onlyKeyHeader(req.rawHeaders);
    const fingerprint = sent === undefined ? undefined : keys.identify(sent);
    if (fingerprint !== undefined) contextOf(res).keyFingerprint = fingerprint;
    next();
  };
}

/** Lets through only a request that `identifyKey` found a valid key in. */
export const requireKey: RequestHandler = (_req, res, next) => {
  next(contextOf(res).keyFingerprint === undefined ? new HttpFailure('UNAUTHORIZED') : undefined);
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
