import { assembleRecord, type CatalogRecord, type RecordKind, type RecordParts } from '@workplan/core';

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
