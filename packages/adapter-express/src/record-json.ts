import { type RecordBase } from '@workplan/core';
import { isoTimeOf } from './iso-time.js';

/** Writes a record, or a list of them, as JSON. */
export interface RecordJson {
  one(record: RecordBase): string;
  many(records: readonly RecordBase[]): string;
}

/** How many records' JSON a writer keeps (each some 200 bytes): a few pages of the largest lists. */
export const KEPT_RECORDS = 10_000;

/** A record's JSON, and the `updatedAt` of the revision it was written for. */
interface Written {
  readonly updatedAt: number;
  readonly json: string;
}

/**
 * The JSON of the records of a resource whose text lives in `field`, made once for that
 * shape: the same bytes as `JSON.stringify`, which for a record's two dates falls back to
 * calling `toJSON` on each and spends most of a list's time there (profiled: list of 100).
 * A record carries `id`, the text field, `createdAt` and `updatedAt`, in that order (the
 * core's `assembleRecord`); one that does not is left to `JSON.stringify` itself.
 *
 * The JSON written is kept by id, with the record's `updatedAt`, and served again while a
 * record comes with the same one: every update moves `updatedAt` strictly forward and ids
 * are never reused (the core's `revisionOf`), so an id at one `updatedAt` is always the
 * same text and dates. Lists serve the same records again and again; writing each anew
 * was a fifth of a list's time (profiled: list of 100). The oldest written goes first
 * past `kept` records.
 */
export function recordJsonOf(field: string, kept = KEPT_RECORDS): RecordJson {
  const fieldKey = `,${JSON.stringify(field)}:`;
  const written = new Map<string, Written>();
  const write = (record: RecordBase): string => {
    const { id, createdAt, updatedAt } = record;
    const text: unknown = (record as unknown as Record<string, unknown>)[field];
    if (typeof id !== 'string' || typeof text !== 'string' || !(createdAt instanceof Date) || !(updatedAt instanceof Date)) {
      return JSON.stringify(record);
    }
    const time = updatedAt.getTime();
    const known = written.get(id);
    if (known !== undefined && known.updatedAt === time) return known.json;
    const json = `{"id":${JSON.stringify(id)}${fieldKey}${JSON.stringify(text)},"createdAt":${timeJson(createdAt)},"updatedAt":${timeJson(updatedAt)}}`;
    // V8 builds a template string as a tree of its parts and walks that tree each time the
    // string is copied; reading a character flattens it into one run, once, here.
    json.charCodeAt(0);
    // Deleted first, so a record written again counts as the newest.
    written.delete(id);
    written.set(id, { updatedAt: time, json });
    if (written.size > kept) written.delete(written.keys().next().value as string);
    return json;
  };
  const many = (records: readonly RecordBase[]): string => `[${records.map(write).join(',')}]`;
  return { one: write, many };
}

function timeJson(date: Date): string {
  const iso = isoTimeOf(date);
  return iso === null ? 'null' : `"${iso}"`;
}
