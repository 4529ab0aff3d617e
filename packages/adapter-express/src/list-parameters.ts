import { HttpFailure } from './http-failure.js';
import { queryStringOf, queryTextsOf } from './query-string.js';

/** The query parameters a list takes (the contract's "Finding records"), as the client wrote them. */
export interface ListParameters {
  readonly q?: string;
  readonly sort?: string;
  readonly count?: true;
  /** The opaque cursor of a next page, still encoded. */
  readonly after?: string;
}

type Name = keyof ListParameters;
const NAMES: ReadonlySet<Name> = new Set<Name>(['q', 'sort', 'count', 'after']);

/** Reads the list's parameters from the request target, strictly (see `queryTextsOf`); `count` is `true` or left out. */
export function listParametersOf(target: string): ListParameters {
  const { count, ...texts } = queryTextsOf(target, NAMES);
  return count === undefined ? texts : { ...texts, count: countOf(count) };
}

/** What `count` takes: the contract names `count=true` alone; any other value is refused, `false` too. */
export const COUNT_VALUES: readonly string[] = ['true'];

function countOf(value: string): true {
  if (COUNT_VALUES.includes(value)) return true;
  throw new HttpFailure('INVALID_QUERY', {}, { parameter: 'count', rule: { kind: 'oneOf', values: COUNT_VALUES } });
}

/** The parameters of a next page, in the order they are written, percent-encoded. */
export function listQueryStringOf(parameters: ListParameters): string {
  const { q, sort, count, after } = parameters;
  return queryStringOf([['q', q], ['sort', sort], ['count', count === undefined ? undefined : 'true'], ['after', after]]);
}
