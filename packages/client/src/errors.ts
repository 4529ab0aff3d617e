/** One member of the document that broke a value rule, with the service's sentence for it. */
export interface FieldIssue {
  /** The member's name (`value` or `title`), or `""` for the document itself. */
  readonly field: string;
  readonly message: string;
}

/** What some failures carry besides the envelope's code and sentences. */
export interface FailureDetails {
  /** On `VALIDATION_FAILED`: each field and what is wrong with it. */
  readonly issues?: readonly FieldIssue[];
  /** From `Retry-After` (503, 429): seconds to wait before trying again. */
  readonly retryAfterSeconds?: number;
}

/** A failure the service answered (or an answer that was not the service's envelope). */
export class WorkplanClientError extends Error {
  override readonly name: string = 'WorkplanClientError';
  /** On `VALIDATION_FAILED`: each field and what is wrong with it; empty otherwise. */
  readonly issues: readonly FieldIssue[];
  /** From `Retry-After` (503, 429): seconds to wait before trying again. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The contract's machine code (`NOT_FOUND`, `CONFLICT`, ...), or `UNEXPECTED_RESPONSE`. */
    readonly code: string,
    /** The operation's fixed message, e.g. `Não foi possível criar a escala de trabalho.` */
    message: string,
    /** A short sentence saying what went wrong, in Portuguese. */
    readonly detail: string,
    /** The `X-Request-Id` of the answer, to find it in the service's logs. */
    readonly requestId: string,
    /** The record already holding the value, on `CONFLICT`. */
    readonly existingId?: string,
    details: FailureDetails = {},
  ) {
    super(message);
    this.issues = details.issues ?? [];
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/**
 * 410 `CURSOR_EXPIRED`: the changes after the `after` asked for are no longer kept (the
 * service's retention removed them), so a follower has missed some: it must read the lists
 * again and follow on from a new place. Still a `WorkplanClientError`, with that code.
 */
export class CursorExpiredError extends WorkplanClientError {
  override readonly name: string = 'CursorExpiredError';
}
