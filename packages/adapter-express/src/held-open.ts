import { type ServerResponse } from 'node:http';
import { contextOf } from './request-context.js';

/**
 * A signal for a request answered over time (a long poll, an event stream): it aborts when
 * the client leaves or when the server lets the request go (`letGo`, at its drain), so such
 * a request never holds a shutdown, nor waits for a client that is gone.
 */
export function holdOpen(res: ServerResponse): AbortSignal {
  const held = heldOf(res);
  res.once('close', () => {
    held.abort(new Error('the client went away'));
  });
  return held.signal;
}

/** Ends the wait of a request held open, now or as soon as it is held: the server is draining. */
export function letGo(res: ServerResponse): void {
  heldOf(res).abort(new Error('the server is shutting down'));
}

function heldOf(res: ServerResponse): AbortController {
  const context = contextOf(res);
  context.held ??= new AbortController();
  return context.held;
}
