import { type TextRule } from './text-rules.js';

/** Every way a use case can refuse; adapters map each kind to their own answer in one table. */
export type WorkplanErrorKind = 'validation' | 'invalidPage' | 'invalidQuery' | 'cursorExpired' | 'notFound' | 'stale' | 'conflict' | 'storageUnavailable';

/** A rule a document broke: `notObject` for the document itself, a text rule for its field. */
export interface FieldIssue {
  readonly field: string;
  readonly rule: TextRule | 'notObject';
}

const brand = Symbol.for('@workplan/core/WorkplanError');

/** The one error type of the domain, told apart by `kind`. */
export class WorkplanError extends Error {
  readonly [brand] = true;
  override readonly name = 'WorkplanError';

  private constructor(
    readonly kind: WorkplanErrorKind,
    message: string,
    readonly issues: readonly FieldIssue[] = [],
    readonly existingId?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** True for any WorkplanError, even one made by another copy of this package. */
  static is(value: unknown): value is WorkplanError {
    return typeof value === 'object' && value !== null && brand in value;
  }

  /** The document or its text field broke a value rule. */
  static validation(issues: readonly FieldIssue[]): WorkplanError {
    return new WorkplanError('validation', 'the document breaks a value rule', issues);
  }

  /** A skip or limit outside its range. */
  static invalidPage(reason: string): WorkplanError {
    return new WorkplanError('invalidPage', reason);
  }

  /** A search, sort, count or cursor a list cannot take. */
  static invalidQuery(reason: string): WorkplanError {
    return new WorkplanError('invalidQuery', reason);
  }

  /** A place in the change log older than the changes still kept: what followed it is gone. */
  static cursorExpired(after: string): WorkplanError {
    return new WorkplanError('cursorExpired', `the changes after ${JSON.stringify(after)} are no longer kept`);
  }

  /** No record has the id. */
  static notFound(id: string): WorkplanError {
    return new WorkplanError('notFound', `no record has id ${JSON.stringify(id)}`);
  }

  /** The record is no longer at any revision the caller expected: someone changed it since it was read. */
  static stale(id: string): WorkplanError {
    return new WorkplanError('stale', `record ${JSON.stringify(id)} is not at an expected revision`);
  }

  /** Another record already holds a clashing text. */
  static conflict(existingId: string): WorkplanError {
    return new WorkplanError('conflict', `record ${existingId} already holds this text`, [], existingId);
  }

  /** The storage did not answer in time; `cause` is kept for logs, never shown to callers. */
  static storageUnavailable(cause?: unknown): WorkplanError {
    return new WorkplanError('storageUnavailable', 'the storage is unavailable', [], undefined, { cause });
  }
}
