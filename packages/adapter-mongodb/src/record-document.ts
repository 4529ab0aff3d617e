import { assembleRecord, FOLD_VERSION, foldText, type CatalogRecord, type RecordKind } from '@workplan/core';
import { type UUID } from 'mongodb';
import { fromBsonId, toBsonId } from './record-id.js';

/**
 * A record as MongoDB keeps it. The text sits under the kind's own field name (`value`,
 * `title`) so the collection reads like the API; `key` is what the unique index holds;
 * `folded` is the text as searches and the text order compare it (core's `foldText`), as
 * MongoDB has no collation that folds accents and FerretDB has no collation at all, and
 * `foldedBy` the `FOLD_VERSION` it was folded by. Documents written before `folded` was
 * kept, or by an older fold, are folded again by the start-up backfill. `change` is the
 * number of the last change written to the record (change-protocol.ts).
 */
export interface RecordDocument {
  _id: UUID;
  key: string;
  folded?: string;
  foldedBy?: number;
  createdAt: Date;
  updatedAt: Date;
  change?: number;
  [field: string]: unknown;
}

/** The fields a text is written to, always together, so `folded` never lags its text. */
export function textFields(kind: RecordKind<string>, text: string): { [field: string]: string | number; folded: string; foldedBy: number } {
  return { [kind.field]: text, folded: foldText(text), foldedBy: FOLD_VERSION };
}

/** The document to insert for a new record and its uniqueness key. */
export function toDocument<F extends string>(kind: RecordKind<F>, record: CatalogRecord<F>, key: string): RecordDocument {
  const _id = toBsonId(record.id);
  // The core makes every id; one that is not canonical is a bug upstream, not a missing record.
  if (_id === undefined) throw new TypeError(`record id ${JSON.stringify(record.id)} is not a canonical UUID`);
  return { _id, ...textFields(kind, record[kind.field]), key, createdAt: record.createdAt, updatedAt: record.updatedAt };
}

/** The record a stored document holds; refuses a document without its text field. */
export function toRecord<F extends string>(kind: RecordKind<F>, document: RecordDocument): CatalogRecord<F> {
  const text = document[kind.field];
  // Someone else may write to the collection; a document without the field must not pass as a record.
  if (typeof text !== 'string') {
    throw new TypeError(`document ${fromBsonId(document._id)} has no string ${kind.field}`);
  }
  return assembleRecord(kind, {
    id: fromBsonId(document._id),
    text,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
  });
}
