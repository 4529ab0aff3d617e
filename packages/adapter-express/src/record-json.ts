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
  const pages = new KeptPageJson();
  const many = (records: readonly RecordBase[]): string => {
    const kept = pages.get(records);
    if (kept !== undefined) return kept;
    const json = `[${records.map(write).join(',')}]`;
    pages.set(records, json);
    return json;
  };
  return { one: write, many };
}

/** How many lists' JSON a writer keeps at most (a page of 1000 is some 200 KB). */
export const KEPT_PAGES = 16;

/** A list's JSON, and the ids and `updatedAt`s of the records it was written for, in order. */
interface WrittenPage {
  readonly ids: readonly string[];
  readonly times: readonly number[];
  readonly json: string;
}

/**
 * The JSON of the lists written lately, each served again while a list comes with the same
 * records at the same `updatedAt`s, in the same order (the reason the records' JSON can be
 * kept). Joining the kept JSON of each record anew cost twice as much once updates had
 * scattered those strings over the heap (a list of 100 after 90,000 updates: 8.5 µs to
 * 15 µs a join, measured in one process), and the benchmark's list of 100 ran at 0.6 of
 * the same list on a fresh app. Checking the list is 100 comparisons of an id and a time.
 */
class KeptPageJson {
  readonly #pages = new Map<string, WrittenPage>();

  get(records: readonly RecordBase[]): string | undefined {
    const first = records[0];
    if (first === undefined) return undefined;
    const page = this.#pages.get(pageKey(first, records.length));
    if (page === undefined) return undefined;
    for (let i = 0; i < records.length; i += 1) {
      const record = records[i] as RecordBase;
      if (record.id !== page.ids[i] || !(record.updatedAt instanceof Date) || record.updatedAt.getTime() !== page.times[i]) return undefined;
    }
    return page.json;
  }

  set(records: readonly RecordBase[], json: string): void {
    const first = records[0];
    if (first === undefined) return;
    const key = pageKey(first, records.length);
    this.#pages.delete(key);
    if (this.#pages.size >= KEPT_PAGES) {
      const oldest = this.#pages.keys().next().value;
      if (oldest !== undefined) this.#pages.delete(oldest);
    }
    const times = records.map((record) => (record.updatedAt instanceof Date ? record.updatedAt.getTime() : Number.NaN));
    this.#pages.set(key, { ids: records.map((record) => record.id), times, json });
  }
}

/** Where a list is kept: its first record and its length. */
function pageKey(first: RecordBase, length: number): string {
  return `${String(length)} ${first.id}`;
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
