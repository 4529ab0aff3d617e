import { WorkplanError } from '@workplan/core';
import { HttpFailure } from './http-failure.js';
import { codeOfKind, issueMessages, type ErrorCode } from './problems.js';
import { detailOf, type QueryRefusal } from './refusal-details.js';

/** A failure to answer: its code, body members beyond code and detail, and its own headers. */
export interface Problem {
  readonly code: ErrorCode;
  readonly members: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string>>;
  /** Its own detail, where it says more than the table's: what a refused parameter takes. */
  readonly detail?: string;
}

/** The problem of a code alone, with no members or headers of its own. */
export function problemFor(code: ErrorCode): Problem {
  return { code, members: {}, headers: {} };
}

/** Turns anything thrown while serving a request into the contract's answer. */
export function problemOf(error: unknown): Problem {
  if (error instanceof HttpFailure) return { code: error.code, members: {}, headers: error.headers, ...detailIfRefused(error.refusal) };
  if (WorkplanError.is(error)) return { code: codeOfKind[error.kind], members: domainMembers(error), headers: {}, ...detailIfRefused(error.refusal) };
  const bodyParserCode = bodyParserCodes[typeOfBodyParserError(error)];
  if (bodyParserCode !== undefined) return problemFor(bodyParserCode);
  // The router throws a URIError when a path segment holds malformed percent-encoding.
  if (error instanceof URIError) return problemFor('BAD_REQUEST');
  return problemFor('INTERNAL');
}

function detailIfRefused(refusal: QueryRefusal | undefined): { detail?: string } {
  return refusal === undefined ? {} : { detail: detailOf(refusal) };
}

/** What a domain refusal tells beyond its code: the broken rules, or the record in the way. */
function domainMembers(error: WorkplanError): Readonly<Record<string, unknown>> {
  if (error.kind === 'validation') {
    return { issues: error.issues.map(({ field, rule }) => ({ field, message: issueMessages[rule] })) };
  }
  if (error.kind === 'conflict') return { existingId: error.existingId };
  return {};
}

/** body-parser's error types, and how each is answered. */
const bodyParserCodes: Readonly<Record<string, ErrorCode>> = {
  'entity.parse.failed': 'INVALID_JSON',
  'entity.too.large': 'PAYLOAD_TOO_LARGE',
  'encoding.unsupported': 'UNSUPPORTED_MEDIA_TYPE',
  'charset.unsupported': 'UNSUPPORTED_MEDIA_TYPE',
  'request.aborted': 'BAD_REQUEST',
  'request.size.invalid': 'BAD_REQUEST',
};

function typeOfBodyParserError(error: unknown): string {
  if (typeof error !== 'object' || error === null || !('type' in error)) return '';
  return typeof error.type === 'string' ? error.type : '';
}
