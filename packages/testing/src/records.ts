import {
  assembleRecord,
  creationOf,
  deletionOf,
  uniquenessKey,
  updateOf,
  type CatalogRecord,
  type Change,
  type RecordKind,
  type RecordParts,
  type RecordRepository,
} from '@workplan/core';

let sequence = 0;

/** A UUID version 7 shaped id, increasing with each call, for records made in tests. */
export function testId(): string {
  sequence += 1;
  const hex = sequence.toString(16).padStart(12, '0');
  return `0190a000-0000-7000-8000-${hex}`;
}

/** A record of `kind` with sensible defaults; pass only what the test is about. */
export function buildRecord<F extends string>(
  kind: RecordKind<F>,
  overrides: Partial<RecordParts> = {},
): CatalogRecord<F> {
  const createdAt = overrides.createdAt ?? new Date('2026-11-22T14:36:43.123Z');
  return assembleRecord(kind, {
    id: overrides.id ?? testId(),
    text: overrides.text ?? `texto ${String(sequence)}`,
    createdAt,
    updatedAt: overrides.updatedAt ?? createdAt,
  });
}

/** A write of `text` over the state `previous`, `updatedAt` defaulting to one millisecond after it. */
export interface TextUpdate {
  readonly text: string;
  readonly updatedAt?: Date;
  readonly by?: string;
}

/**
 * Inserts a record of `kind` built from `overrides` through `repository`, as the catalog
 * would (`creationOf`, `uniquenessKey`); resolves the record.
 */
export async function insertRecord<F extends string>(
  repository: RecordRepository<F>,
  kind: RecordKind<F>,
  overrides: Partial<RecordParts> = {},
  by?: string,
): Promise<CatalogRecord<F>> {
  const record = buildRecord(kind, overrides);
  await repository.insert(creationOf(kind, record, by), uniquenessKey(record[kind.field]));
  return record;
}

/** Writes `text` over `previous` (a state the record may or may not still be in); resolves the change, if written. */
export async function updateRecord<F extends string>(
  repository: RecordRepository<F>,
  kind: RecordKind<F>,
  previous: CatalogRecord<F>,
  { text, updatedAt = new Date(previous.updatedAt.getTime() + 1), by }: TextUpdate,
): Promise<Change<F> | undefined> {
  const data = assembleRecord(kind, { id: previous.id, text, createdAt: previous.createdAt, updatedAt });
  return repository.update(updateOf(kind, previous, data, by), uniquenessKey(text));
}

/** Deletes the record in the state `previous`; resolves the change, if it was still in that state. */
export async function deleteRecord<F extends string>(
  repository: RecordRepository<F>,
  kind: RecordKind<F>,
  previous: CatalogRecord<F>,
  by?: string,
): Promise<Change<F> | undefined> {
  return repository.delete(deletionOf(kind, previous, new Date(previous.updatedAt.getTime() + 1), by));
}
