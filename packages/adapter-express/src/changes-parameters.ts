import { checkChangesLimit, checkChangesWait } from '@workplan/core';
import { queryStringOf, queryTextsOf } from './query-string.js';

/**
 * The query parameters of the changes feed (the contract's "Changes"), read as the client
 * wrote them: `after` a change id, `limit` and `wait` whole numbers in the feed's ranges
 * (checked here, before a stream or a wait begins). The form of `after` is the feed's to check.
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
    ...(limit === undefined ? {} : { limit: wholeNumber(limit, checkChangesLimit) }),
    ...(wait === undefined ? {} : { wait: wholeNumber(wait, checkChangesWait) }),
  };
}

/**
 * Plain decimal digits only, as a page in a path, in the range `check` takes: `-1`, `1.5`,
 * `1e3`, ` 1` and an empty value are no number, refused saying the range.
 */
function wholeNumber(text: string, check: (value: number) => void): number {
  const value = /^[0-9]+$/u.test(text) ? Number(text) : Number.NaN;
  check(value);
  return value;
}

/** The parameters of the next page of the feed or of a history: the same, read on `after` the last change. */
export function changesQueryStringOf(parameters: ChangesParameters, after: string): string {
  const { limit, wait } = parameters;
  return queryStringOf([['after', after], ['limit', limit === undefined ? undefined : String(limit)], ['wait', wait === undefined ? undefined : String(wait)]]);
}
