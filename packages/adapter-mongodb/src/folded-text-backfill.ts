import { FOLD_VERSION, type RecordKind } from '@workplan/core';
import { type AnyBulkWriteOperation, type Collection, type Filter, type UUID } from 'mongodb';
import { guardDriverCall } from './driver-errors.js';
import { textFields, type RecordDocument } from './record-document.js';
import { fromBsonId } from './record-id.js';
import { abortableBy, backgroundLimitOf, withinTimeLimit } from './time-limit.js';
import { type RecordState, type WriteClaims } from './write-claims.js';

// Documents read per round. FerretDB reads the whole collection for every find (it sorts
// and filters in itself), so the fewer rounds, the fewer such reads.
const READ_SIZE = 1000;
// Documents filled per bulk write, which holds their claims, so it must end within a call's
// time as every claim's holder does (write-claims.ts). FerretDB runs a bulk write's updates
// one after another, on SQLite each a read of the whole collection: keep it small.
const FILL_SIZE = 20;

/** A document still without its folded text of this `FOLD_VERSION`, and the state of the record it holds. */
interface Unfolded extends RecordState {
  readonly document: RecordDocument;
  readonly text: string;
}

/**
 * Gives the folded text to every document of `kind` written before it was kept, or folded
 * by an older `FOLD_VERSION` (`foldedBy`), so that searches and the text order see every
 * record as they are folded now. Safe to run on every start, and by several
 * instances at once: it visits the documents in `_id` order, and fills one only while it
 * still holds the text and `updatedAt` read, under the claim a conditional write of that
 * state takes (write-claims.ts), since FerretDB reads a filter and writes the document in
 * two steps: without the claim, an update landing between them would be overwritten with
 * the old text. Documents another writer had claimed are tried again one by one at the
 * end, which waits a live writer out, or supersedes a claim left behind past its lease.
 * Resolves how many documents it filled.
 */
export async function backfillFoldedText(
  kind: RecordKind<string>,
  collection: Collection<RecordDocument>,
  claims: WriteClaims,
  timeoutMS: number,
): Promise<number> {
  // Its reads are work no request waits for (FerretDB reads the whole collection for each);
  // its writes hold claims, so they keep a repository call's limit, as every claim's holder does.
  const readMS = backgroundLimitOf(timeoutMS);
  const read = (where: Filter<RecordDocument>) => withinTimeLimit(readMS, undefined, (signal) => unfolded(kind, collection, where, signal, readMS));
  const withinTime = <T>(call: (signal: AbortSignal) => Promise<T>) => withinTimeLimit(timeoutMS, undefined, call);
  let filled = 0;
  const claimedByOthers: UUID[] = [];
  for (let after: UUID | undefined, more = true; more; ) {
    const batch = await read(after === undefined ? {} : { _id: { $gt: after } });
    for (let start = 0; start < batch.length; start += FILL_SIZE) {
      const { written, unclaimed } = await withinTime((signal) =>
        claims.exclusivelyAll(batch.slice(start, start + FILL_SIZE), signal, (claimed) => fillAll(collection, kind, claimed, signal)),
      );
      filled += written;
      claimedByOthers.push(...unclaimed.map((state) => state.document._id));
    }
    more = batch.length === READ_SIZE;
    after = batch.at(-1)?.document._id;
  }
  // By now the writers that held them are most likely done, having filled them (another
  // instance's backfill, or an update): only those still without it are tried again.
  for (let start = 0; start < claimedByOthers.length; start += READ_SIZE) {
    for (const state of await read({ _id: { $in: claimedByOthers.slice(start, start + READ_SIZE) } })) {
      const one = await withinTime((signal) => claims.exclusively(state.recordId, state.updatedAt, signal, () => fillAll(collection, kind, [state], signal)));
      filled += one ?? 0;
    }
  }
  return filled;
}

/** Documents matching `where` still without their folded text of this version, in `_id` order; others' documents without a text or date are left alone. */
async function unfolded(
  kind: RecordKind<string>,
  collection: Collection<RecordDocument>,
  where: Filter<RecordDocument>,
  signal: AbortSignal,
  maxTimeMS: number,
): Promise<Unfolded[]> {
  const filter: Filter<RecordDocument> = { ...where, foldedBy: { $ne: FOLD_VERSION }, [kind.field]: { $type: 'string' }, updatedAt: { $type: 'date' } };
  const projection = { _id: 1, [kind.field]: 1, updatedAt: 1 };
  const documents = await guardDriverCall(() => collection.find(filter, { signal, projection, maxTimeMS }).sort({ _id: 1 }).limit(READ_SIZE).toArray());
  return documents.map((document) => ({ document, text: document[kind.field] as string, recordId: fromBsonId(document._id), updatedAt: document.updatedAt }));
}

/** Sets the folded text of each document that still holds the text and state read; resolves how many it set. */
async function fillAll(collection: Collection<RecordDocument>, kind: RecordKind<string>, unfolded: readonly Unfolded[], signal: AbortSignal): Promise<number> {
  if (unfolded.length === 0) return 0;
  const updates = unfolded.map(({ document, text }): AnyBulkWriteOperation<RecordDocument> => ({
    updateOne: {
      filter: { _id: document._id, updatedAt: document.updatedAt, [kind.field]: text, foldedBy: { $ne: FOLD_VERSION } },
      update: { $set: textFields(kind, text) },
    },
  }));
  const result = await guardDriverCall(() => collection.bulkWrite(updates, abortableBy(signal, { ordered: false })));
  return result.modifiedCount;
}
