import { type RecordBase } from '@workplan/core';
import { isoTimeOf } from './iso-time.js';

/** Writes a record, or a list of them, as JSON. */
export interface RecordJson {
  one(record: RecordBase): string;
  many(records: readonly RecordBase[]): string;
}

/**
 * The JSON of the records of a resource whose text lives in `field`, made once for that
 * shape: the same bytes as `JSON.stringify`, which for a record's two dates falls back to
 * calling `toJSON` on each and spends most of a list's time there (profiled: list of 100).
 * A record carries `id`, the text field, `createdAt` and `updatedAt`, in that order (the
 * core's `assembleRecord`); one that does not is left to `JSON.stringify` itself.
 */
export function recordJsonOf(field: string): RecordJson {
  const fieldKey = `,${JSON.stringify(field)}:`;
  const one = (record: RecordBase): string => {
    const { id, createdAt, updatedAt } = record;
    const text: unknown = (record as unknown as Record<string, unknown>)[field];
    if (typeof id !== 'string' || typeof text !== 'string' || !(createdAt instanceof Date) || !(updatedAt instanceof Date)) {
      return JSON.stringify(record);
    }
    return `{"id":${JSON.stringify(id)}${fieldKey}${JSON.stringify(text)},"createdAt":${timeJson(createdAt)},"updatedAt":${timeJson(updatedAt)}}`;
  };
  const many = (records: readonly RecordBase[]): string => {
    let json = '[';
    for (let index = 0; index < records.length; index += 1) {
      if (index > 0) json += ',';
      json += one(records[index] as RecordBase);
    }
    return `${json}]`;
  };
  return { one, many };
}

function timeJson(date: Date): string {
  const iso = isoTimeOf(date);
  return iso === null ? 'null' : `"${iso}"`;
}
