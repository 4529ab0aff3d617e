import { type ErrorCode } from './problems.js';
import { type QueryRefusal } from './refusal-details.js';

/** A refusal the HTTP adapter makes itself (as opposed to one from the domain). */
export class HttpFailure extends Error {
  override readonly name = 'HttpFailure';

  constructor(
    readonly code: ErrorCode,
    /** Headers the answer must carry, such as `Allow` on a 405. */
    readonly headers: Readonly<Record<string, string>> = {},
    /** The parameter refused, and what it takes: the answer's detail says it. */
    readonly refusal?: QueryRefusal,
  ) {
    super(code);
  }
}
