import { WorkplanClientError } from '@workplan/client';
import { words } from './texts.js';

/** A failure as the operator needs to see it. */
export interface Failure {
  /** The service's message for the operation (the seed's words), or the console's own when the service never answered. */
  readonly message: string;
  /** What went wrong, in a sentence. */
  readonly detail: string;
  /** The sentence to show beside the field, when the text broke a value rule. */
  readonly fieldIssue?: string;
  /** On a conflict: the record that already holds the value. */
  readonly existingId?: string;
  /** The record changed since it was read (412): offer to reload it. */
  readonly stale?: boolean;
  /** The record is gone (404). */
  readonly gone?: boolean;
  /** The key was refused (401): the console asks for it again. */
  readonly unauthorized?: boolean;
  /** The service's id of the answer, for the IT team's logs. */
  readonly requestId?: string;
}

/** What to show for whatever a call rejected with. */
export function failureOf(error: unknown): Failure {
  if (error instanceof WorkplanClientError) return answeredFailure(error);
  if (error instanceof DOMException && error.name === 'TimeoutError') return { message: words.unexpected, detail: words.timeout };
  if (error instanceof TypeError) return { message: words.unexpected, detail: words.offline };
  return { message: words.unexpected, detail: error instanceof Error ? error.message : String(error) };
}

function answeredFailure(error: WorkplanClientError): Failure {
  const base = { message: error.message, detail: error.detail, ...(error.requestId === '' ? {} : { requestId: error.requestId }) };
  switch (error.code) {
    case 'VALIDATION_FAILED': {
      const issue = error.issues.map((one) => one.message).join(' ');
      return issue === '' ? base : { ...base, fieldIssue: issue };
    }
    case 'CONFLICT':
      return error.existingId === undefined ? base : { ...base, existingId: error.existingId };
    case 'PRECONDITION_FAILED':
      return { ...base, detail: words.stale, stale: true };
    case 'NOT_FOUND':
      return { ...base, detail: words.gone, gone: true };
    case 'UNAUTHORIZED':
      return { ...base, unauthorized: true };
    case 'STORAGE_UNAVAILABLE':
      return { ...base, detail: words.stillUnavailable };
    default:
      return base;
  }
}

/** Whether a rejection is the caller's own cancel, which needs no message. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
