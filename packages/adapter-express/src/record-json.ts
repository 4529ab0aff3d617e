import { type RecordBase } from '@workplan/core';

/** Writes a record, or a list of them, as JSON. */
export interface RecordJson {
  one(record: RecordBase): string;
  /** A page of the list named `list` (its search and order; `''` for the plain list). */
  many(records: readonly RecordBase[], list?: string): string;
}

/** How many records' JSON a writer keeps at most: the records of several of the largest pages. */
export const KEPT_RECORDS = 10_000;

/** A record's JSON, and the `updatedAt` of the revision it was written for. */
interface Written {
  readonly updatedAt: number;
  readonly json: string;
}

/**
 * The JSON of the records of a resource whose text lives in `field`, made once for that
 * shape: the same bytes as `JSON.stringify`, which for a record's two dates falls back to
 * looking up and calling `toJSON` on each, where a list spent most of its time. A record
 * carries `id`, the text field, `createdAt` and `updatedAt`, in that order (the core's
 * `assembleRecord`); one that does not is left to `JSON.stringify` itself.
 *
 * The JSON written is kept, each record's (`KeptJson`) and each list's (`KeptPageJson`),
 * and served again while the same records come at the same `updatedAt`s. That is right
 * only while `updatedAt` is unique per state of a record, which no type says: every change
 * to a record moves its `updatedAt` strictly forward, even when the clock has not (the
 * core's `Catalog.update`), every storage keeps it to the millisecond (the repository
 * contract), and ids are never reused; then an id at one `updatedAt` is always the same
 * text and dates. `record-json.test.ts` fails if an update stops showing in a find or a
 * list. Kept because without them the find and the list of 100 miss issue 49's targets
 * against NestJS on Express (docs/benchmarks/README.md, "Caches and tricks, measured").
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
    const created = timeJson(createdAt);
    // A new record's two dates are one instant: written once.
    const updated = time === createdAt.getTime() ? created : timeJson(updatedAt);
    const json = `{"id":${JSON.stringify(id)}${fieldKey}${JSON.stringify(text)},"createdAt":${created},"updatedAt":${updated}}`;
    written.set(id, { updatedAt: time, json });
    return json;
  };
  const pages = new KeptPageJson();
  const many = (records: readonly RecordBase[], list = ''): string => {
    const kept = pages.get(records, list);
    if (kept !== undefined) return kept;
    const json = `[${records.map(write).join(',')}]`;
    pages.set(records, list, json);
    return json;
  };
  return { one: write, many };
}

/** How many lists' JSON a writer keeps at most. */
export const KEPT_PAGES = 16;

/** A list's JSON, and the ids and `updatedAt`s of the records it was written for, in order. */
interface WrittenPage {
  readonly ids: readonly string[];
  readonly times: readonly number[];
  readonly json: string;
}

/**
 * The JSON of the lists written lately, each served again while a list comes with the same
 * records at the same `updatedAt`s, in the same order (right for the reason the records'
 * JSON is: see `recordJsonOf`). Joining the kept JSON of each record anew cost much more
 * once updates had scattered those strings over the heap; checking a list is a comparison
 * of an id and a time per record.
 */
class KeptPageJson {
  readonly #pages = new Map<string, WrittenPage>();

  get(records: readonly RecordBase[], list: string): string | undefined {
    const first = records[0];
    if (first === undefined) return undefined;
    const page = this.#pages.get(pageKey(list, first, records.length));
    if (page === undefined) return undefined;
    for (let i = 0; i < records.length; i += 1) {
      const record = records[i] as RecordBase;
      if (record.id !== page.ids[i] || !(record.updatedAt instanceof Date) || record.updatedAt.getTime() !== page.times[i]) return undefined;
    }
    return page.json;
  }

  set(records: readonly RecordBase[], list: string, json: string): void {
    const first = records[0];
    if (first === undefined) return;
    const key = pageKey(list, first, records.length);
    this.#pages.delete(key);
    if (this.#pages.size >= KEPT_PAGES) {
      const oldest = this.#pages.keys().next().value;
      if (oldest !== undefined) this.#pages.delete(oldest);
    }
    const times = records.map((record) => (record.updatedAt instanceof Date ? record.updatedAt.getTime() : Number.NaN));
    this.#pages.set(key, { ids: records.map((record) => record.id), times, json });
  }
}

/**
 * Where a page is kept: its list, its first record and its length. The key only chooses a
 * place; `get` serves a page only when every record matches, so two pages of one key (a
 * search and a sort starting on the same record, say) are never confused. The list in the
 * key keeps such pages from taking each other's place on every other request.
 */
function pageKey(list: string, first: RecordBase, length: number): string {
  return `${String(length)} ${first.id} ${list}`;
}

/** At most `kept` records' JSON; past that, the one written first is dropped. */
class KeptJson {
  readonly #kept: number;
  readonly #written = new Map<string, Written>();

  constructor(kept: number) {
    this.#kept = Math.max(1, kept);
  }

  get(id: string): Written | undefined {
    return this.#written.get(id);
  }

  set(id: string, written: Written): void {
    this.#written.delete(id);
    this.#written.set(id, written);
    if (this.#written.size <= this.#kept) return;
    const first = this.#written.keys().next().value;
    if (first !== undefined) this.#written.delete(first);
  }
}

/** A date as `JSON.stringify` writes it (`Date.prototype.toJSON`): ISO 8601 in UTC, `null` for an invalid date. */
function timeJson(date: Date): string {
  return Number.isNaN(date.getTime()) ? 'null' : `"${date.toISOString()}"`;
}
