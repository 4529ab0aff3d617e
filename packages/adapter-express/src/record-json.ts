import { type RecordBase } from '@workplan/core';
import { isoTimeOf } from './iso-time.js';

/** Writes a record, or a list of them, as JSON. */
export interface RecordJson {
  one(record: RecordBase): string;
  many(records: readonly RecordBase[]): string;
}

/** How many records' JSON a writer keeps at most (each some 200 bytes): pages of the largest lists. */
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
 * was a fifth of a list's time (profiled: list of 100).
 */
export function recordJsonOf(field: string, kept = KEPT_RECORDS): RecordJson {
  const fieldKey = `,${JSON.stringify(field)}:`;
  const written = new KeptJson(kept);
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
    written.set(id, { updatedAt: time, json });
    return json;
  };
  const many = (records: readonly RecordBase[]): string => `[${records.map(write).join(',')}]`;
  return { one: write, many };
}

/**
 * At most `kept` records' JSON, in two generations: when the newer holds half, the older
 * is dropped and the newer takes its place; one found in the older moves to the newer.
 * Dropping the oldest entry of one Map instead cost more than writing the JSON (profiled:
 * create), as V8 walks past every entry deleted before it to find it.
 */
class KeptJson {
  readonly #half: number;
  #newer = new Map<string, Written>();
  #older = new Map<string, Written>();

  constructor(kept: number) {
    this.#half = Math.max(1, Math.floor(kept / 2));
  }

  get(id: string): Written | undefined {
    const newer = this.#newer.get(id);
    if (newer !== undefined) return newer;
    const older = this.#older.get(id);
    if (older !== undefined) this.set(id, older);
    return older;
  }

  set(id: string, written: Written): void {
    this.#newer.set(id, written);
    if (this.#newer.size < this.#half) return;
    this.#older = this.#newer;
    this.#newer = new Map();
  }
}

function timeJson(date: Date): string {
  const iso = isoTimeOf(date);
  return iso === null ? 'null' : `"${iso}"`;
}
