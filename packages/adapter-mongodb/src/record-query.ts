import { notACursor, type ListPosition, type RecordOrder, type RecordQuery, type SortField } from '@workplan/core';
import { type Filter, type IndexDescription, type Sort, type UUID } from 'mongodb';
import { type RecordDocument } from './record-document.js';
import { toBsonId } from './record-id.js';

/** The stored field each order sorts by: the text order by the folded text. */
const SORT_KEYS = { createdAt: 'createdAt', updatedAt: 'updatedAt', text: 'folded' } as const satisfies Record<SortField, string>;

/**
 * One index per order and direction, each ending in `_id` ascending as every order breaks
 * ties. MongoDB serves a sort from an index read in its own order or the exact reverse, so
 * `{ v: -1, _id: 1 }` needs an index of its own: `{ v: 1, _id: 1 }` read backwards is
 * `{ v: -1, _id: -1 }`. `createdAt_id` keeps the name it had when it served plain lists.
 */
export const ORDER_INDEXES: readonly IndexDescription[] = Object.values(SORT_KEYS).flatMap((field) => [
  { key: { [field]: 1, _id: 1 }, name: `${field}_id` },
  { key: { [field]: -1, _id: 1 }, name: `${field}_desc_id` },
]);

/** The sort of `order`: its field, then `_id` ascending whatever the direction. */
export function sortOf(order: RecordOrder): Sort {
  return { [SORT_KEYS[order.field]]: order.descending ? -1 : 1, _id: 1 };
}

/** The documents whose folded text contains `search` (already folded); every document without one. */
export function searchFilter(search: string | undefined): Filter<RecordDocument> {
  return search === undefined ? {} : { folded: { $regex: literalPattern(search) } };
}

/**
 * The documents of a query's page: those matching its search that come after `query.after`
 * in its order. The `$or` says "after": a later value, or the same value and a greater id.
 * The bound beside it (`$lte` or `$gte` the value) lets MongoDB read the order's index
 * from the position on instead of planning each branch of the `$or` apart.
 */
export function pageFilter(query: RecordQuery): Filter<RecordDocument> {
  if (query.after === undefined) return searchFilter(query.search);
  const field = SORT_KEYS[query.order.field];
  const { value, _id } = storedPosition(query.after, query.order);
  const [beyond, upTo] = query.order.descending ? (['$lt', '$lte'] as const) : (['$gt', '$gte'] as const);
  const after: Filter<RecordDocument>[] = [{ [field]: { [upTo]: value } }, { $or: [{ [field]: { [beyond]: value } }, { _id: { $gt: _id } }] }];
  return { $and: query.search === undefined ? after : [searchFilter(query.search), ...after] };
}

/**
 * A position as the documents hold it: dates as BSON dates, the id as the BSON UUID. A
 * position whose id the core could not have made comes from a forged cursor: no document
 * has it, and an order of UUIDs has no place for it.
 */
function storedPosition(position: ListPosition, order: RecordOrder): { value: Date | string; _id: UUID } {
  const _id = toBsonId(position.id);
  if (_id !== undefined) {
    if (order.field === 'text' && typeof position.value === 'string') return { value: position.value, _id };
    if (order.field !== 'text' && typeof position.value === 'number') return { value: new Date(position.value), _id };
  }
  throw notACursor();
}

// ASCII punctuation, escaped with a backslash, is a literal in MongoDB's PCRE and in the
// Go regexp FerretDB matches with; control characters are written as code points, since
// MongoDB refuses a pattern that holds a NUL. Every other character stands for itself.
const PUNCTUATION = /[!-/:-@[-`{-~]/gu;
// eslint-disable-next-line no-control-regex -- control characters are what it escapes
const CONTROL = /[\u0000-\u001F\u007F]/gu;

/** A regular expression matching `text` itself anywhere in a string. */
export function literalPattern(text: string): string {
  return text
    .replace(PUNCTUATION, (character) => `\\${character}`)
    .replace(CONTROL, (character) => `\\x{${character.charCodeAt(0).toString(16)}}`);
}
