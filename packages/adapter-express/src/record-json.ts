import { type RecordBase } from '@workplan/core';

/** Writes a record, or a list of them, as JSON. */
export interface RecordJson {
  one(record: RecordBase): string;
  many(records: readonly RecordBase[]): string;
}

/**
 * The JSON of the records of a resource whose text lives in `field`, made once for that
 * shape: the same bytes as `JSON.stringify`, which looks up and calls `toJSON` on each of a
 * record's two dates, its slowest path, where a list spent most of its time. A record
 * carries `id`, the text field, `createdAt` and `updatedAt`, in that order (the core's
 * `assembleRecord`); one that does not is left to `JSON.stringify` itself. The lists
 * written lately are kept (`KeptPageJson`). The figures: docs/benchmarks/README.md.
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
  const pages = new KeptPageJson();
  const many = (records: readonly RecordBase[]): string => {
    const kept = pages.get(records);
    if (kept !== undefined) return kept;
    const json = `[${records.map(one).join(',')}]`;
    pages.set(records, json);
    return json;
  };
  return { one, many };
}

/** A date as `JSON.stringify` writes it (`Date.prototype.toJSON`): ISO 8601 in UTC, `null` for an invalid date. */
function timeJson(date: Date): string {
  return Number.isNaN(date.getTime()) ? 'null' : `"${date.toISOString()}"`;
}

/** How many lists' JSON a writer keeps at most: a page of 1000 records is some 200 KB. */
export const KEPT_PAGES = 16;

/** A list's JSON, and the ids and `updatedAt`s of the records it was written for, in order. */
interface WrittenPage {
  readonly ids: readonly string[];
  readonly times: readonly number[];
  readonly json: string;
}

/**
 * The JSON of the lists written lately, each served again while a list comes with the same
 * records at the same `updatedAt`s, in the same order. Writing a list's records anew is
 * what a list costs; checking one is a comparison of an id and a time per record.
 *
 * Correct only while `updatedAt` is unique per state of a record, which no type says: every
 * change to a record moves its `updatedAt` strictly forward, even when the clock has not
 * (the core's `Catalog.update`), every storage keeps it to the millisecond (the repository
 * contract), and ids are never reused. Then the same ids at the same `updatedAt`s are the
 * same texts and dates. `record-json.test.ts` fails if an update stops showing in a list.
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
