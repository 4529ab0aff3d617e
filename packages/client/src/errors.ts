/** A failure the service answered (or an answer that was not the service's envelope). */
export class WorkplanClientError extends Error {
  override readonly name = 'WorkplanClientError';

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
  ) {
    super(message);
  }
}
