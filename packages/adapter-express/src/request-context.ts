import { type ServerResponse } from 'node:http';
import { type KeyHolder } from './api-keys.js';
import { type ErrorCode } from './problems.js';

/** A request's deadline: the timer that answers it, what it runs, and the time it was given. */
export interface Deadline {
  timer: NodeJS.Timeout;
  readonly answer: () => void;
  readonly ms: number;
}

/** What the handlers of one request learn and the error handler and logs need. */
export interface RequestContext {
  requestId: string;
  /** The seed's message of the matched operation; unset where none matched. */
  message?: string;
  /** The route pattern that matched, for logs and metrics; never the raw path. */
  route?: string;
  /**
   * Who made the request: the name and role of its key, once the key is accepted; never the
   * key. The name is what logs and metrics show, and what a write records as its author.
   */
  key?: KeyHolder;
  /**
   * Set once the deadline has answered: whatever the handlers produce after that (a record,
   * a failure, a header they set) has no one left to tell, and is handed here to be dropped.
   */
  dropLateResult?: (error?: unknown) => void;
  /** Made when a read first asks for the request's signal; aborted when the deadline answers. */
  readsInFlight?: AbortController;
  /** Set by the deadline middleware: when it answers, moved by `postponeDeadline`; unset once it is ended. */
  deadline?: Deadline | undefined;
  /** Made when a request is held open (`holdOpen`); aborted when the server lets it go or the client leaves. */
  held?: AbortController;
  /** The code of the failure it was answered with, for metrics: a 503 of the storage is not one of a full instance. */
  problemCode?: ErrorCode;
}

// A symbol-keyed property of the response rather than a WeakMap entry: every response takes
// the same shape change, and ephemeron tables cost the garbage collector on every request.
const CONTEXT = Symbol('workplan.requestContext');

interface WithContext {
  [CONTEXT]?: RequestContext;
}

/** Starts the context of a request. */
export function beginContext(res: ServerResponse, requestId: string): RequestContext {
  const context: RequestContext = { requestId };
  (res as WithContext)[CONTEXT] = context;
  return context;
}

/** The context of a request; one is made if the request skipped the first middleware. */
export function contextOf(res: ServerResponse): RequestContext {
  return (res as WithContext)[CONTEXT] ?? beginContext(res, '');
}

/** A signal that aborts when the request is answered without its result (by the deadline), for the reads it makes. */
export function requestSignal(res: ServerResponse): AbortSignal {
  const context = contextOf(res);
  context.readsInFlight ??= new AbortController();
  return context.readsInFlight.signal;
}

/**
 * Calls `listener` when `res` emits `event`, which a response emits once. Added with `on`:
 * `once` wraps every listener in closures of its own, which each request held open (a
 * stream, a long poll) would keep for as long as it is held.
 */
export function onResponseEnd(res: ServerResponse, event: 'close' | 'finish', listener: () => void): void {
  res.on(event, listener);
}
