import { WorkplanError } from '@workplan/core';
import { type ServerResponse } from 'node:http';
import { type RequestHandler } from 'express';
import { sendProblem } from './envelope.js';
import { problemFor } from './problem-of.js';
import { contextOf, onResponseEnd, type Deadline } from './request-context.js';

const slowClient = { ...problemFor('REQUEST_TIMEOUT'), headers: { Connection: 'close' } };

/** A result that came after the deadline had answered, and was dropped. */
export interface LateResult {
  readonly requestId: string;
  readonly method: string;
  readonly route: string;
  /** The failure the handlers ended with, if they failed; unset for a late success. */
  readonly error?: unknown;
}

/**
 * Answers a request not answered within `ms`, so a slow storage never holds a connection
 * open: 408 REQUEST_TIMEOUT while its body has not all arrived (the client was slow, and the
 * rest of its body is not read), else 503 STORAGE_UNAVAILABLE (only the storage can be
 * waited on then). Reads in progress that asked for the request's signal are called off;
 * whatever the handler does later is dropped and handed to `onLate`, which is not told of
 * it as an error: the client was answered. A handler that waits on purpose moves the
 * deadline by its wait (`postponeDeadline`).
 */
export function deadline(ms: number, onLate?: (late: LateResult) => void): RequestHandler {
  return (req, res, next) => {
    const answer = () => {
      if (res.headersSent) return;
      const context = contextOf(res);
      context.dropLateResult = (error) => {
        const { requestId, route = 'unmatched' } = context;
        onLate?.({ requestId, method: req.method, route, ...(error === undefined ? {} : { error }) });
      };
      sendProblem(res, req.complete ? problemFor('STORAGE_UNAVAILABLE') : slowClient);
      // No one is left to read what the storage finds: have it stop looking.
      context.readsInFlight?.abort(WorkplanError.storageUnavailable(new Error(`the request was answered at its deadline of ${ms} ms`)));
    };
    // Plain data on the context, not a closure over a reassigned timer: every request makes
    // one, and such closures made processes under finds hold far more memory.
    const due: Deadline = { timer: setTimeout(answer, ms), answer, ms };
    contextOf(res).deadline = due;
    onResponseEnd(res, 'close', () => {
      endDeadline(res);
    });
    next();
  };
}

/**
 * Ends the deadline of `res`: it is closed, or it is an event stream that has begun (its
 * deadline has nothing left to answer, and a stream held open would keep it for nothing).
 */
export function endDeadline(res: ServerResponse): void {
  const context = contextOf(res);
  if (context.deadline === undefined) return;
  clearTimeout(context.deadline.timer);
  context.deadline = undefined;
}

/**
 * Moves the deadline of `res` to `by` ms after its own time from now, for a request that
 * waits on purpose (a long poll) and must still be answered in time once its wait is over.
 */
export function postponeDeadline(res: ServerResponse, by: number): void {
  const due = contextOf(res).deadline;
  if (due === undefined) return;
  clearTimeout(due.timer);
  due.timer = setTimeout(due.answer, due.ms + by);
}
