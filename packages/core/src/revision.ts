import { type RecordBase } from './record.js';

/**
 * A record's revision: a token that changes with every successful update of the record
 * and with nothing else. It is `updatedAt` in milliseconds, written in base 36. That is
 * enough because every update moves `updatedAt` strictly forward and writes only while
 * the record still has the `updatedAt` the update read (see `Catalog.update`), so no two
 * states of one record ever share it.
 */
export function revisionOf(record: RecordBase): string {
  return record.updatedAt.getTime().toString(36);
}

/**
 * The revisions a caller last saw of a record: a conditional update or delete goes ahead
 * only while the record is at one of them. An empty list matches no revision.
 */
export type ExpectedRevisions = readonly string[];

/** Whether `record` is at one of the `expected` revisions; with none expected, any record is. */
export function isAtExpectedRevision(record: RecordBase, expected: ExpectedRevisions | undefined): boolean {
  return expected === undefined || expected.includes(revisionOf(record));
}
