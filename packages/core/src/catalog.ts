import { WorkplanError } from './errors.js';
import { type Clock, type IdGenerator, type Page, type RecordRepository } from './ports.js';
import { assembleRecord, type CatalogRecord, type RecordKind } from './record.js';
import { checkText, uniquenessKey } from './text-rules.js';

/** The farthest a list may skip. */
export const MAX_SKIP = 10_000_000;

export interface CatalogOptions<F extends string> {
  readonly kind: RecordKind<F>;
  readonly repository: RecordRepository<F>;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The largest page a list may ask for. */
  readonly maxPageSize: number;
}

/** One page of a list, and the page after it when more records follow within reach. */
export interface ListedPage<F extends string> {
  readonly records: CatalogRecord<F>[];
  /** Unset on the last page, and where the next page's `skip` would pass `MAX_SKIP`. */
  readonly next?: Page;
}

/** The page a list asks for: `skip` defaults to 0, `limit` to the largest page. */
export interface PageRequest {
  readonly skip?: number | undefined;
  readonly limit?: number | undefined;
}

/** The five operations on one kind of record: create, update, find, list and delete. */
export class Catalog<F extends string> {
  readonly kind: RecordKind<F>;
  readonly maxPageSize: number;
  readonly #repository: RecordRepository<F>;
  readonly #clock: Clock;
  readonly #ids: IdGenerator;

  constructor(options: CatalogOptions<F>) {
    this.kind = options.kind;
    this.maxPageSize = options.maxPageSize;
    this.#repository = options.repository;
    this.#clock = options.clock;
    this.#ids = options.ids;
  }

  /** Creates a record from a document holding its text field; other members are ignored. */
  async create(document: unknown): Promise<CatalogRecord<F>> {
    const text = this.#readText(document);
    const now = this.#clock.now();
    const record = assembleRecord(this.kind, { id: this.#ids.next(), text, createdAt: now, updatedAt: now });
    await this.#repository.insert(record, uniquenessKey(text));
    return record;
  }

  /** Replaces the text of the record with this id; `updatedAt` always moves forward. */
  async update(id: string, document: unknown): Promise<CatalogRecord<F>> {
    const text = this.#readText(document);
    const current = await this.find(id);
    const updatedAt = laterThan(current.updatedAt, this.#clock.now());
    const updated = await this.#repository.update(id, { text, key: uniquenessKey(text), updatedAt });
    if (updated === undefined) throw WorkplanError.notFound(id);
    return updated;
  }

  /** Finds the record with exactly this id. */
  async find(id: string): Promise<CatalogRecord<F>> {
    const record = await this.#repository.findById(id);
    if (record === undefined) throw WorkplanError.notFound(id);
    return record;
  }

  /** Lists records oldest first, passing over `skip` and returning at most `limit`. */
  async list(request: PageRequest = {}): Promise<ListedPage<F>> {
    const page = { skip: request.skip ?? 0, limit: request.limit ?? this.maxPageSize };
    this.#checkPage(page);
    // One record more than asked tells whether a next page exists without counting.
    const records = await this.#repository.list({ skip: page.skip, limit: page.limit + 1 });
    if (records.length <= page.limit) return { records };
    const next = { skip: page.skip + page.limit, limit: page.limit };
    return next.skip <= MAX_SKIP ? { records: records.slice(0, page.limit), next } : { records: records.slice(0, page.limit) };
  }

  /** Deletes the record with this id. */
  async delete(id: string): Promise<void> {
    const deleted = await this.#repository.delete(id);
    if (!deleted) throw WorkplanError.notFound(id);
  }

  #readText(document: unknown): string {
    const field = this.kind.field;
    if (typeof document !== 'object' || document === null || Array.isArray(document)) {
      throw WorkplanError.validation([{ field: '', rule: 'notObject' }]);
    }
    // Only an own member counts: a `__proto__` or inherited `value` must not.
    const raw: unknown = Object.hasOwn(document, field) ? (document as Record<string, unknown>)[field] : undefined;
    const checked = checkText(raw);
    if (!checked.ok) throw WorkplanError.validation([{ field, rule: checked.rule }]);
    return checked.text;
  }

  #checkPage({ skip, limit }: Page): void {
    if (!Number.isSafeInteger(skip) || skip < 0 || skip > MAX_SKIP) {
      throw WorkplanError.invalidPage(`skip must be a whole number from 0 to ${MAX_SKIP}`);
    }
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > this.maxPageSize) {
      throw WorkplanError.invalidPage(`limit must be a whole number from 1 to ${this.maxPageSize}`);
    }
  }
}

/** `now`, unless the clock has not moved past `previous`: then one millisecond after it. */
function laterThan(previous: Date, now: Date): Date {
  return now.getTime() > previous.getTime() ? now : new Date(previous.getTime() + 1);
}
