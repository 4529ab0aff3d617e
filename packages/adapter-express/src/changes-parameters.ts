import { HttpFailure } from './http-failure.js';
import { queryStringOf, queryTextsOf } from './query-string.js';

/**
 * The query parameters of the changes feed (the contract's "Changes"), read as the client
 * wrote them: `after` a change id, `limit` and `wait` whole numbers. Their ranges and the
 * form of `after` are the feed's to check (the core's `ChangeFeed`).
 */
export interface ChangesParameters {
  readonly after?: string;
  readonly limit?: number;
  /** Seconds to hold an empty answer for a change. */
  readonly wait?: number;
}

type Name = keyof ChangesParameters;
const FEED_NAMES: ReadonlySet<Name> = new Set<Name>(['after', 'limit', 'wait']);
/** A record's history is paged as the feed is, and never waits: a `wait` there is a parameter it ignores. */
export const HISTORY_NAMES: ReadonlySet<Name> = new Set<Name>(['after', 'limit']);

/** Reads the feed's parameters (or those of `names`) from the request target, strictly (see `queryTextsOf`). */
export function changesParametersOf(target: string, names: ReadonlySet<Name> = FEED_NAMES): ChangesParameters {
  const { after, limit, wait } = queryTextsOf(target, names);
  return {
    ...(after === undefined ? {} : { after }),
    ...(limit === undefined ? {} : { limit: wholeNumber(limit) }),
    ...(wait === undefined ? {} : { wait: wholeNumber(wait) }),
  };
}

/** Plain decimal digits only, as a page in a path: `-1`, `1.5`, `1e3`, ` 1` and an empty value are refused. */
function wholeNumber(text: string): number {
  if (!/^[0-9]+$/u.test(text)) throw new HttpFailure('INVALID_QUERY');
  return Number(text);
}

/** The parameters of the next page of the feed or of a history: the same, read on `after` the last change. */
export function changesQueryStringOf(parameters: ChangesParameters, after: string): string {
  const { limit, wait } = parameters;
  return queryStringOf([['after', after], ['limit', limit === undefined ? undefined : String(limit)], ['wait', wait === undefined ? undefined : String(wait)]]);
}
