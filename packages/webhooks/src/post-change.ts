import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** How an attempt that was not acknowledged ended. */
export type FailureOutcome = 'status' | 'redirect' | 'timeout' | 'connection';

/** What one POST of a change came to. */
export type Attempt =
  | { readonly acknowledged: true; readonly status: number }
  | { readonly acknowledged: false; readonly outcome: FailureOutcome; readonly cause: string }
  /** Called off by the deliverer's stop: neither a success nor the receiver's failure. */
  | { readonly acknowledged: false; readonly outcome: 'stopped'; readonly cause: string };

/** What a POST is sent with. */
export interface PostRequest {
  readonly url: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** The subscription's connection: see `connectionFor`. */
  readonly agent: HttpAgent;
  /** Aborts the POST when the deliverer stops. */
  readonly signal: AbortSignal;
}

/**
 * One kept-alive connection to `url`'s receiver, for one subscription: its POSTs take turns
 * on it, so a subscription never holds more than one connection. (Node's `fetch` shares a
 * pool per origin and cost several times as much per POST: docs/benchmarks/README.md.)
 */
export function connectionFor(url: string): HttpAgent {
  const options = { keepAlive: true, maxSockets: 1 };
  return url.startsWith('https:') ? new HttpsAgent(options) : new HttpAgent(options);
}

/**
 * POSTs a change, once: a 2xx answer within the time allowed acknowledges it; any other
 * status, a redirect (never followed: the receiver's address is the operator's to change),
 * a timeout or a connection that failed does not.
 */
export function postChange(request: PostRequest): Promise<Attempt> {
  const send = request.url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let ended: 'timeout' | 'stopped' | undefined;
    const sent = send(request.url, {
      method: 'POST',
      agent: request.agent,
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(request.body)),
        'user-agent': 'workplan-webhooks',
        ...request.headers,
      },
    });
    const end = (why: 'timeout' | 'stopped') => (): void => {
      ended ??= why;
      sent.destroy();
    };
    // A timer and a listener of its own per POST, both let go when it settles: combined
    // signals made per POST would stay attached to the delivery's long-lived one.
    const timer = setTimeout(end('timeout'), request.timeoutMs);
    const stop = end('stopped');
    request.signal.addEventListener('abort', stop, { once: true });
    const settle = (attempt: Attempt): void => {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', stop);
      resolve(attempt);
    };
    if (request.signal.aborted) stop();
    sent.on('response', (answer) => {
      const status = answer.statusCode ?? 0;
      // The body says nothing the status did not; read to its end, it frees the
      // connection for the next change.
      answer.on('close', () => {
        settle(outcomeOf(status));
      });
      answer.resume();
    });
    sent.on('error', (error) => {
      if (ended === 'stopped') settle({ acknowledged: false, outcome: 'stopped', cause: 'stopped while delivering' });
      else if (ended === 'timeout') settle({ acknowledged: false, outcome: 'timeout', cause: `no answer in ${request.timeoutMs / 1000} s` });
      else settle({ acknowledged: false, outcome: 'connection', cause: connectionCause(error) });
    });
    sent.end(request.body);
  });
}

function outcomeOf(status: number): Attempt {
  if (status >= 200 && status < 300) return { acknowledged: true, status };
  if (status >= 300 && status < 400) return { acknowledged: false, outcome: 'redirect', cause: `HTTP ${status} redirect, not followed` };
  return { acknowledged: false, outcome: 'status', cause: `HTTP ${status}` };
}

/** Why a connection failed, in the words of the system (`ECONNREFUSED`, `ECONNRESET`, ...) where it gave some. */
function connectionCause(error: Error): string {
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  return `connection failed: ${code ?? error.message}`;
}
