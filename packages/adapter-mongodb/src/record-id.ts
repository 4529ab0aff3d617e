import { UUID } from 'mongodb';

// The only spelling of an id the core ever makes; anything else names no record.
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u;

/**
 * The BSON UUID (binary subtype 4) stored as `_id` for a record id, or `undefined` when
 * the id is not a lowercase canonical UUID. Ids compare exactly, so an upper-case
 * spelling of a real id must miss rather than be parsed into the same bytes.
 */
export function toBsonId(id: string): UUID | undefined {
  return CANONICAL_UUID.test(id) ? new UUID(id) : undefined;
}

/** The record id a stored `_id` stands for, in the lowercase canonical form. */
export function fromBsonId(bsonId: UUID): string {
  return bsonId.toHexString(true);
}
