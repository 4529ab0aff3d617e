import { type RecordKind } from '@workplan/core';
import { type AnyBulkWriteOperation, type Collection, type Filter, type UUID } from 'mongodb';
import { guardDriverCall } from './driver-errors.js';
import { textFields, type RecordDocument } from './record-document.js';
import { fromBsonId } from './record-id.js';
import { abortableBy } from './time-limit.js';
import { type RecordState, type WriteClaims } from './write-claims.js';

// Documents filled per round, all in one bulk write within one call's time. FerretDB runs a
// bulk write's updates one after another, each a read of the whole collection, so a round
// must stay small for it; on MongoDB a round is four round trips whatever its size.
const BATCH_SIZE = 20;

/** Runs `call` with a signal that ends its driver calls when one call's time is up. */
export type TimeLimited = <T>(call: (signal: AbortSignal) => Promise<T>) => Promise<T>;

/** A document still without its folded text, and the state of the record it holds. */
interface Unfolded extends RecordState {
  readonly document: RecordDocument;
  readonly text: string;
}

/**
 * Gives the folded text to every document of `kind` written before it was kept, so that
 * searches and the text order see every record. Safe to run on every start, and by several
 * instances at once: it visits the documents in `_id` order, and fills one only while it
 * still holds the text and `updatedAt` read, under the claim a conditional write of that
 * state takes (write-claims.ts), since FerretDB reads a filter and writes the document in
 * two steps: without the claim, an update landing between them would be overwritten with
 * the old text. Documents another writer has claimed are filled one by one after each
 * round, which waits that writer out, or supersedes a claim left behind past its lease.
 * Resolves how many documents it filled.
 */
export async function backfillFoldedText(
  kind: RecordKind<string>,
  collection: Collection<RecordDocument>,
  claims: WriteClaims,
  withinTime: TimeLimited,
): Promise<number> {
  let filled = 0;
  let after: UUID | undefined;
  for (;;) {
    const batch = await withinTime((signal) => unfoldedAfter(kind, collection, after, signal));
    const { written, unclaimed } = await withinTime((signal) =>
      claims.exclusivelyAll(batch, signal, (claimed) => fillAll(collection, kind, claimed, signal)),
    );
    filled += written;
    for (const state of unclaimed) {
      const one = await withinTime((signal) => claims.exclusively(state.recordId, state.updatedAt, signal, () => fillAll(collection, kind, [state], signal)));
      filled += one ?? 0;
    }
    const last = batch.at(-1);
    if (batch.length < BATCH_SIZE || last === undefined) return filled;
    after = last.document._id;
  }
}

/** The next documents without folded text, after `after` in `_id` order; others' documents without a text or date are left alone. */
async function unfoldedAfter(
  kind: RecordKind<string>,
  collection: Collection<RecordDocument>,
  after: UUID | undefined,
  signal: AbortSignal,
): Promise<Unfolded[]> {
  const filter: Filter<RecordDocument> = { folded: { $exists: false }, [kind.field]: { $type: 'string' }, updatedAt: { $type: 'date' } };
  if (after !== undefined) filter._id = { $gt: after };
  const projection = { _id: 1, [kind.field]: 1, updatedAt: 1 };
  const documents = await guardDriverCall(() => collection.find(filter, { signal, projection }).sort({ _id: 1 }).limit(BATCH_SIZE).toArray());
  return documents.map((document) => ({ document, text: document[kind.field] as string, recordId: fromBsonId(document._id), updatedAt: document.updatedAt }));
}

/** Sets the folded text of each document that still holds the text and state read; resolves how many it set. */
async function fillAll(collection: Collection<RecordDocument>, kind: RecordKind<string>, unfolded: readonly Unfolded[], signal: AbortSignal): Promise<number> {
  if (unfolded.length === 0) return 0;
  const updates = unfolded.map(({ document, text }): AnyBulkWriteOperation<RecordDocument> => ({
    updateOne: {
      filter: { _id: document._id, updatedAt: document.updatedAt, [kind.field]: text, folded: { $exists: false } },
      update: { $set: textFields(kind, text) },
    },
  }));
  const result = await guardDriverCall(() => collection.bulkWrite(updates, abortableBy(signal, { ordered: false })));
  return result.modifiedCount;
}
