import { type ServerResponse } from 'node:http';
import { HttpFailure } from './http-failure.js';
import { contextOf, onResponseEnd } from './request-context.js';

/**
 * A signal for a request answered over time (a long poll, an event stream): it aborts when
 * the client leaves or when the server lets the request go (`letGo`: at its drain, or when
 * its key is gone), so such a request never holds a shutdown, nor waits for a client that
 * is gone, nor reads on for a key that is no longer good.
 */
export function holdOpen(res: ServerResponse): AbortSignal {
  const held = heldOf(res);
  onResponseEnd(res, 'close', () => {
    held.abort(new Error('the client went away'));
  });
  return held.signal;
}

/**
 * Ends the wait of a request held open, now or as soon as it is held: the server is
 * draining (the request answers what it has), or with `refusal`, which it is answered
 * instead (a long poll with the failure, a stream with an event of it before it closes).
 */
export function letGo(res: ServerResponse, refusal?: HttpFailure): void {
  heldOf(res).abort(refusal ?? new Error('the server is shutting down'));
}

/** The refusal a held request was let go with, if it was let go with one. */
export function refusalOf(held: AbortSignal): HttpFailure | undefined {
  return held.aborted && held.reason instanceof HttpFailure ? held.reason : undefined;
}

function heldOf(res: ServerResponse): AbortController {
  const context = contextOf(res);
  context.held ??= new AbortController();
  return context.held;
}
