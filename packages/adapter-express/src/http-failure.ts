import { type ErrorCode } from './problems.js';

/** A refusal the HTTP adapter makes itself (as opposed to one from the domain). */
export class HttpFailure extends Error {
  override readonly name = 'HttpFailure';

  constructor(
    readonly code: ErrorCode,
    /** Headers the answer must carry, such as `Allow` on a 405. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(code);
  }
}
