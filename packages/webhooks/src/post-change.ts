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
  /** Aborts the POST when the deliverer stops. */
  readonly signal: AbortSignal;
}

/**
 * POSTs a change, once: a 2xx answer within the time allowed acknowledges it; any other
 * status, a redirect (never followed: the receiver's address is the operator's to change),
 * a timeout or a connection that failed does not.
 */
export async function postChange(request: PostRequest): Promise<Attempt> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      body: request.body,
      headers: { 'content-type': 'application/json', 'user-agent': 'workplan-webhooks', ...request.headers },
      redirect: 'manual',
      signal: AbortSignal.any([timeout, request.signal]),
    });
    // The answer's body says nothing the status did not; read to its end, it lets the
    // connection be used again for the next change.
    await response.arrayBuffer().catch(() => undefined);
    const { status } = response;
    if (status >= 200 && status < 300) return { acknowledged: true, status };
    if (status >= 300 && status < 400) return { acknowledged: false, outcome: 'redirect', cause: `HTTP ${status} redirect, not followed` };
    return { acknowledged: false, outcome: 'status', cause: `HTTP ${status}` };
  } catch (error) {
    if (request.signal.aborted) return { acknowledged: false, outcome: 'stopped', cause: 'stopped while delivering' };
    if (timeout.aborted) return { acknowledged: false, outcome: 'timeout', cause: `no answer in ${request.timeoutMs / 1000} s` };
    return { acknowledged: false, outcome: 'connection', cause: connectionCause(error) };
  }
}

/** Why a connection failed, in the words of the system (`ECONNREFUSED`, `ECONNRESET`, ...) where it gave some. */
function connectionCause(error: unknown): string {
  const cause: unknown = error instanceof Error ? error.cause : undefined;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined;
  const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return code === undefined ? `connection failed: ${message}` : `connection failed: ${code}`;
}
