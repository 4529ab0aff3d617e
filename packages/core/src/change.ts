import { WorkplanError } from './errors.js';
import { type CatalogRecord, type RecordKind } from './record.js';

/** What a write did to a record. */
export type ChangeAction = 'create' | 'update' | 'delete';

/**
 * One successful write, as it is kept on record: which record of which kind, what was done,
 * when (`at`, the record's `updatedAt` after a create or update), by whom (a name, never a
 * secret), the record after it (`data`, `null` after a delete) and before it (`previous`,
 * `null` before a create). `id` is given by the storage where the write commits: changes
 * are numbered in the order they were committed (see `changeIdOf`).
 */
export interface Change<F extends string = string> {
  readonly id: string;
  /** The kind's name, such as `workSchedule` (`RecordKind.name`). */
  readonly kind: string;
  readonly recordId: string;
  readonly action: ChangeAction;
  readonly at: Date;
  readonly by: string;
  readonly data: CatalogRecord<F> | null;
  readonly previous: CatalogRecord<F> | null;
}

/** A record's creation, before the storage numbers it. */
export type Creation<F extends string> = Omit<Change<F>, 'id' | 'action' | 'data' | 'previous'> & {
  readonly action: 'create';
  readonly data: CatalogRecord<F>;
  readonly previous: null;
};

/** A record's new text, before the storage numbers it; written only while the record is still `previous`. */
export type Update<F extends string> = Omit<Change<F>, 'id' | 'action' | 'data' | 'previous'> & {
  readonly action: 'update';
  readonly data: CatalogRecord<F>;
  readonly previous: CatalogRecord<F>;
};

/** A record's removal, before the storage numbers it; carried out only while the record is still `previous`. */
export type Deletion<F extends string> = Omit<Change<F>, 'id' | 'action' | 'data' | 'previous'> & {
  readonly action: 'delete';
  readonly data: null;
  readonly previous: CatalogRecord<F>;
};

/** A write as the use cases make it, for a storage to carry out and number in one step. */
export type ChangeDraft<F extends string> = Creation<F> | Update<F> | Deletion<F>;

/** Who wrote, when the caller names nobody: a library user's own process. */
export const UNNAMED_WRITER = 'system';

/** The creation of `record`. */
export function creationOf<F extends string>(kind: RecordKind<F>, record: CatalogRecord<F>, by: string = UNNAMED_WRITER): Creation<F> {
  return { kind: kind.name, recordId: record.id, action: 'create', at: record.updatedAt, by, data: record, previous: null };
}

/** The update of `previous` to `data` (the same record, a later `updatedAt`). */
export function updateOf<F extends string>(
  kind: RecordKind<F>,
  previous: CatalogRecord<F>,
  data: CatalogRecord<F>,
  by: string = UNNAMED_WRITER,
): Update<F> {
  return { kind: kind.name, recordId: previous.id, action: 'update', at: data.updatedAt, by, data, previous };
}

/** The deletion of `previous` at `at`. */
export function deletionOf<F extends string>(kind: RecordKind<F>, previous: CatalogRecord<F>, at: Date, by: string = UNNAMED_WRITER): Deletion<F> {
  return { kind: kind.name, recordId: previous.id, action: 'delete', at, by, data: null, previous };
}

/** The draft, numbered: what a storage answers once it has committed the write. */
export function numbered<F extends string>(draft: ChangeDraft<F>, sequence: number): Change<F> {
  return { id: changeIdOf(sequence), ...draft };
}

/**
 * Change ids are the decimal form of the change's place in commit order, from 1: each
 * storage numbers changes as they commit, so a higher number was committed later. Callers
 * should treat them as opaque; the core reads them back with `sequenceOf`.
 */
export function changeIdOf(sequence: number): string {
  return String(sequence);
}

/**
 * What `after` takes: a change id, or `0` for the start. At most 15 digits, so always a
 * safe integer, and a bound a schema's pattern states exactly (2^53 - 1 is not one).
 */
export const AFTER_PATTERN = '^(0|[1-9][0-9]{0,14})$';
const AFTER = new RegExp(AFTER_PATTERN, 'u');

/**
 * The place in commit order a change id names (`0`: before the first change); `invalidQuery`
 * for anything that is not one.
 */
export function sequenceOf(id: unknown): number {
  if (typeof id !== 'string' || !AFTER.test(id)) throw WorkplanError.invalidQuery({ parameter: 'after', rule: { kind: 'changeId' } });
  return Number(id);
}
