import { WorkplanError, type AbortSignalLike } from '@workplan/core';

/** How long one repository call, or a readiness ping, may take when no other limit is given. */
export const DEFAULT_TIMEOUT_MS = 2000;

// Work no request waits for (start-up's index builds and reads, a prune of old changes)
// goes over whole collections, and on a large one takes longer than a request may wait:
// held to a request's limit, a start over such a collection fails on every attempt and the
// app is never ready.
const LEAST_BACKGROUND_MS = 60_000;

/** How long one call of work no request waits for may take, where a repository call may take `timeoutMS`. */
export function backgroundLimitOf(timeoutMS: number): number {
  return Math.max(timeoutMS, LEAST_BACKGROUND_MS);
}

/**
 * Runs `call` with a signal that aborts `ms` after the start, or when `caller` aborts if
 * sooner, for `call` to hand to every driver call it makes. The driver gives up server
 * selection, connection checkout and socket reads and writes as soon as the signal fires,
 * rejecting with its reason (here `storageUnavailable`, or the caller's own reason), and
 * closes a connection it was reading from, which has MongoDB end a find whose client left.
 * So one repository call takes `ms` at most, however many round trips it makes and whatever
 * state the server is in (frozen, half-open, slow). The driver's own `timeoutMS` has no
 * effect from 7.x on, and `socketTimeoutMS` bounds each read, not a call, and starts again
 * on the driver's retry.
 */
export async function withinTimeLimit<T>(
  ms: number,
  caller: AbortSignalLike | undefined,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  caller?.throwIfAborted();
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(WorkplanError.storageUnavailable(new Error(`MongoDB did not answer within ${ms} ms`)));
  }, ms);
  const callOff = () => { controller.abort(caller?.reason); };
  caller?.addEventListener('abort', callOff, { once: true });
  try {
    return await call(controller.signal);
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener('abort', callOff);
  }
}

/**
 * Driver options that carry `signal`. The driver aborts any operation on it (every
 * operation's options take one), though its types declare `signal` only on reads.
 */
export function abortableBy<O extends object>(signal: AbortSignal, options: O): O {
  return { ...options, signal };
}

/** Runs work no request waits for (`call`) within its own limit (`backgroundLimitOf`), or until `caller` aborts, as `withinTimeLimit` does a call. */
export async function withinBackgroundLimit<T>(
  timeoutMS: number,
  caller: AbortSignalLike | undefined,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  return withinTimeLimit(backgroundLimitOf(timeoutMS), caller, call);
}
