import { type Request, type RequestHandler } from 'express';
import { type ApiKeys, type KeyHolder } from './api-keys.js';
import { letGo } from './held-open.js';
import { HttpFailure } from './http-failure.js';
import { contextOf, onResponseEnd } from './request-context.js';

/**
 * Notes the name and role of the request's key when it sends exactly one `KEY` header
 * holding a configured key, and refuses nothing: the rate limits between this and
 * `requireKey` must know whether the key is valid before the request is refused or counted.
 */
export function identifyKey(keys: ApiKeys): RequestHandler {
  return (req, res, next) => {
    const sent = onlyKeyHeader(req);
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

/** Whether a key of `holder`'s role may make a request of `method`: a `write` key any, a `read` key GET and HEAD. */
function mayMake(holder: KeyHolder, method: string): boolean {
  return holder.role === 'write' || readMethods.has(method);
}

/**
 * Refuses a `read` key anything but GET and HEAD, before the body is read: a read key
 * learns nothing about the body it sent, and costs no reading of it.
 */
export const requireRole: RequestHandler = (req, res, next) => {
  const key = contextOf(res).key;
  next(key !== undefined && !mayMake(key, req.method) ? new HttpFailure('FORBIDDEN') : undefined);
};

/**
 * For a request held open (a long poll, an event stream): each time the keys are replaced
 * (a reload of the key file), checks its key again, and lets the request go with a 401 once
 * the key is gone or may no longer make it, so a key rotated out reads nothing more. A key
 * still there under a new name goes on, and the request's logs name it by its new name.
 * The key is also checked once more as the watch begins: the keys may have been replaced
 * after `identifyKey`, while the rate limits were counted, and no reload would then end it.
 */
export function endWhenKeyGoes(keys: ApiKeys): RequestHandler {
  return (req, res, next) => {
    const stillAllowed = (): boolean => {
      const sent = onlyKeyHeader(req);
      const holder = sent === undefined ? undefined : keys.identify(sent);
      if (holder === undefined || !mayMake(holder, req.method)) return false;
      contextOf(res).key = holder;
      return true;
    };
    if (!stillAllowed()) {
      next(new HttpFailure('UNAUTHORIZED'));
      return;
    }
    const stop = keys.onReplace(() => {
      if (stillAllowed()) return;
      stop();
      letGo(res, new HttpFailure('UNAUTHORIZED'));
    });
    // A client gone while the rate limits were counted has closed already: nothing to watch.
    if (res.closed) stop();
    else onResponseEnd(res, 'close', stop);
    next();
  };
}

/** The value of the request's `KEY` header when it has exactly one (Node joins repeated ones in `headers`). */
function onlyKeyHeader(req: Request): string | undefined {
  const sent = req.headersDistinct['key'];
  return sent?.length === 1 ? sent[0] : undefined;
}
