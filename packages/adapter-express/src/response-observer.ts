import { type Request, type Response } from 'express';
import { type ErrorCode } from './problems.js';
import { contextOf, onResponseEnd } from './request-context.js';

/** What logs and metrics learn of each answered request; never the key, never the raw path. */
export interface AnsweredRequest {
  readonly requestId: string;
  readonly method: string;
  /** The route pattern, such as `/api/v1/scale/:id`; `unmatched` when none matched, `unparsed` when Node's parser answered. */
  readonly route: string;
  readonly status: number;
  /** The contract's error code of a failure answered in the envelope; unset for a success. */
  readonly code: ErrorCode | undefined;
  readonly durationMs: number;
  /** The name of the request's key (its fingerprint when it has none given); unset without a valid key. */
  readonly keyName: string | undefined;
}

export type ResponseObserver = (answered: AnsweredRequest) => void;

/** Tells `observe` of the request once its answer is written. */
export function observeResponse(req: Request, res: Response, observe: ResponseObserver): void {
  const started = performance.now();
  onResponseEnd(res, 'finish', () => {
    const context = contextOf(res);
    observe({
      requestId: context.requestId,
      method: req.method,
      route: context.route ?? 'unmatched',
      status: res.statusCode,
      code: context.problemCode,
      durationMs: performance.now() - started,
      keyName: context.key?.name,
    });
  });
}
