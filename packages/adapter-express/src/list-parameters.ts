import { HttpFailure } from './http-failure.js';
import { queryStringOf, queryTextsOf } from './query-string.js';

/** The query parameters a list takes (the contract's "Finding records"), as the client wrote them. */
export interface ListParameters {
  readonly q?: string;
  readonly sort?: string;
  readonly count?: boolean;
  /** The opaque cursor of a next page, still encoded. */
  readonly after?: string;
}

type Name = keyof ListParameters;
const NAMES: ReadonlySet<Name> = new Set<Name>(['q', 'sort', 'count', 'after']);

/** Reads the list's parameters from the request target, strictly (see `queryTextsOf`); `count` is `true` or `false`. */
export function listParametersOf(target: string): ListParameters {
  const { count, ...texts } = queryTextsOf(target, NAMES);
  return count === undefined ? texts : { ...texts, count: countOf(count) };
}

function countOf(value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new HttpFailure('INVALID_QUERY');
}

/** The parameters of a next page, in the order they are written, percent-encoded. */
export function listQueryStringOf(parameters: ListParameters): string {
  const { q, sort, count, after } = parameters;
  return queryStringOf([['q', q], ['sort', sort], ['count', count === undefined ? undefined : String(count)], ['after', after]]);
}
