import { revisionOf, type ExpectedRevisions, type RecordBase } from '@workplan/core';

/** The strong entity tag of a record: its revision, quoted. The one place a tag is made. */
export function entityTagOf(record: RecordBase): string {
  return `"${revisionOf(record)}"`;
}

/**
 * The revisions an `If-Match` header names, for the catalog to check in the same step as
 * its write. Absent or `*`: `undefined`, no condition beyond the record existing. A weak
 * tag is dropped, since If-Match compares strongly and a weak tag never matches; so is
 * anything that is not a tag. A header naming no usable tag expects nothing and so
 * matches no record: the write is refused (412), never carried out unconditionally.
 */
export function expectedRevisionsOf(ifMatch: string | undefined): ExpectedRevisions | undefined {
  if (ifMatch === undefined || ifMatch.trim() === '*') return undefined;
  return entityTagsIn(ifMatch)
    .filter((tag) => !tag.weak)
    .map((tag) => tag.opaque);
}

/**
 * Whether an `If-None-Match` header matches the record's current tag: `*`, or any tag
 * in it by weak comparison (RFC 9110, 13.1.2), where `W/"x"` and `"x"` match.
 */
export function noneMatchHits(ifNoneMatch: string | undefined, record: RecordBase): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const revision = revisionOf(record);
  return entityTagsIn(ifNoneMatch).some((tag) => tag.opaque === revision);
}

interface EntityTag {
  readonly weak: boolean;
  /** The characters between the quotes. */
  readonly opaque: string;
}

// RFC 9110's entity-tag: an optional W/ and a quoted string of visible characters other
// than the quote, commas included, so a list cannot simply be split at commas. Empty list
// elements before it are passed over, as RFC 9110 (5.6.1.2) asks of a recipient.
const ENTITY_TAG = /(?:\s*,)*\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(?:,|$)/uy;

/** The tags of a comma-separated list; parsing stops at the first thing that is not a tag. */
function entityTagsIn(list: string): EntityTag[] {
  const tags: EntityTag[] = [];
  ENTITY_TAG.lastIndex = 0;
  while (ENTITY_TAG.lastIndex < list.length) {
    const match = ENTITY_TAG.exec(list);
    if (match === null) break;
    tags.push({ weak: match[1] !== undefined, opaque: match[2] ?? '' });
  }
  return tags;
}
