import { type Response } from 'express';

/** What the handlers of one request learn and the error handler and logs need. */
export interface RequestContext {
  requestId: string;
  /** The seed's message of the matched operation; unset where none matched. */
  message?: string;
  /** The route pattern that matched, for logs and metrics; never the raw path. */
  route?: string;
  /** A short fingerprint of the accepted key; never the key. */
  keyFingerprint?: string;
}

const contexts = new WeakMap<Response, RequestContext>();

/** Starts the context of a request. */
export function beginContext(res: Response, requestId: string): RequestContext {
  const context: RequestContext = { requestId };
  contexts.set(res, context);
  return context;
}

/** The context of a request; one is made if the request skipped the first middleware. */
export function contextOf(res: Response): RequestContext {
  return contexts.get(res) ?? beginContext(res, '');
}
