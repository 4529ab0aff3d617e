import { type TextRule } from './text-rules.js';

/** Every way a use case can refuse; adapters map each kind to their own answer in one table. */
export type WorkplanErrorKind = 'validation' | 'invalidPage' | 'invalidQuery' | 'cursorExpired' | 'notFound' | 'stale' | 'conflict' | 'storageUnavailable';

/** A rule a document broke: `notObject` for the document itself, a text rule for its field. */
export interface FieldIssue {
  readonly field: string;
  readonly rule: TextRule | 'notObject';
}

/**
 * What a refused parameter of a read takes: a whole number in a range (of seconds, for a
 * wait), one of some values, a search text, the cursor of a list's next page, or a change id.
 */
export type ParameterRule =
  | { readonly kind: 'wholeNumber' | 'seconds'; readonly min: number; readonly max: number }
  | { readonly kind: 'oneOf'; readonly values: readonly string[] }
  | { readonly kind: 'search'; readonly maxLength: number }
  | { readonly kind: 'listCursor' | 'changeId' | 'boolean' };

/** A parameter a read refused, and what it takes: for an adapter to tell its caller what would be right. */
export interface ParameterRefusal {
  readonly parameter: string;
  readonly rule: ParameterRule;
}

/** The refusal in a sentence, for the error's message (an adapter says it in its callers' words). */
function sentenceOf({ parameter, rule }: ParameterRefusal): string {
  switch (rule.kind) {
    case 'wholeNumber':
      return `${parameter} must be a whole number from ${rule.min} to ${rule.max}`;
    case 'seconds':
      return `${parameter} must be a whole number of seconds from ${rule.min} to ${rule.max}`;
    case 'oneOf':
      return `${parameter} must be one of ${rule.values.join(', ')}`;
    case 'search':
      return `${parameter} must be well-formed text of at most ${rule.maxLength} characters`;
    case 'listCursor':
      return `${parameter} must be the cursor of a next page of this list, in its order and search`;
    case 'changeId':
      return `${parameter} must be a change id, or 0 for the start`;
    case 'boolean':
      return `${parameter} must be true or false`;
  }
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
    /** What a refused parameter takes (`invalidPage`, `invalidQuery`). */
    readonly refusal?: ParameterRefusal,
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
  static invalidPage(refusal: ParameterRefusal): WorkplanError {
    return new WorkplanError('invalidPage', sentenceOf(refusal), [], undefined, undefined, refusal);
  }

  /** A search, sort, count or cursor a list cannot take, or a bound or place the change feed cannot. */
  static invalidQuery(refusal: ParameterRefusal): WorkplanError {
    return new WorkplanError('invalidQuery', sentenceOf(refusal), [], undefined, undefined, refusal);
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
