import { WorkplanClientError } from './errors.js';

/** What any call may take: a signal to cancel it, a time limit, and whether to retry a 503. */
export interface CallOptions {
  /** Aborts the call, and any wait before a retry; it rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Milliseconds for the whole call, retries included; then it rejects with a `TimeoutError` DOMException. */
  readonly timeoutMs?: number;
  /** Retries a 503 answer after its `Retry-After`; `false` turns off the client's own policy for this call. */
  readonly retry?: RetryPolicy | false;
}

/** Opt-in: try again, up to `attempts` more times, when the service answers 503 (its storage did not answer). */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  readonly attempts: number;
  /** The longest wait, whatever `Retry-After` asks; 30 000 ms when left out. */
  readonly maxDelayMs?: number;
  /** Told before each wait, say to show "trying again in 2 s". */
  readonly onRetry?: (retry: RetryNotice) => void;
}

/** A retry about to happen: which one, how long until it, and the 503 that caused it. */
export interface RetryNotice {
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: WorkplanClientError;
}

/** The client's defaults for every call; each call's options win over them. */
export interface CallDefaults {
  readonly timeoutMs?: number;
  readonly retry?: RetryPolicy;
}

// A 503 without Retry-After (a proxy's, say) still waits a moment before the next try.
const DEFAULT_RETRY_SECONDS = 1;
const DEFAULT_MAX_DELAY_MS = 30_000;

/** Runs `attempt` under the call's signal and time limit, trying again after a 503 as the policy says. */
export async function withCallPolicies<T>(
  attempt: (signal: AbortSignal | undefined) => Promise<T>,
  options: CallOptions = {},
  defaults: CallDefaults = {},
): Promise<T> {
  const signal = callSignal(options.signal, options.timeoutMs ?? defaults.timeoutMs);
  const retry = options.retry ?? defaults.retry;
  for (let tried = 1; ; tried += 1) {
    try {
      return await attempt(signal);
    } catch (error) {
      if (retry === undefined || retry === false || tried > retry.attempts || !isUnavailable(error)) throw error;
      const delayMs = Math.min((error.retryAfterSeconds ?? DEFAULT_RETRY_SECONDS) * 1000, retry.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
      retry.onRetry?.({ attempt: tried, delayMs, error });
      await pause(delayMs, signal);
    }
  }
}

function isUnavailable(error: unknown): error is WorkplanClientError {
  return error instanceof WorkplanClientError && error.status === 503;
}

function callSignal(signal: AbortSignal | undefined, timeoutMs: number | undefined): AbortSignal | undefined {
  if (timeoutMs === undefined) return signal;
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    if (signal?.aborted === true) abort();
    else signal?.addEventListener('abort', abort, { once: true });
  });
}
