import { WorkplanError } from './errors.js';
import { checkChangesPage } from './change-feed.js';
import { creationOf, deletionOf, updateOf, type Change } from './change.js';
import { type ChangeLog, type Clock, type IdGenerator, type Page, type ReadOptions, type RecordRepository } from './ports.js';
import { CREATION_ORDER, cursorOf, orderOf, positionOf, readCursor, searchOf, type ListCursor } from './record-query.js';
import { assembleRecord, type CatalogRecord, type RecordInput, type RecordKind } from './record.js';
import { isAtExpectedRevision, type ExpectedRevisions } from './revision.js';
import { checkText, uniquenessKey } from './text-rules.js';

/** The farthest a list may skip. */
export const MAX_SKIP = 10_000_000;

// An update or delete that finds the record changed between its read and its write reads
// it again. A retry means another write went ahead (or, in a storage that serialises
// conditional writes, is going ahead), so the bound is reached only when the storage
// cannot settle writes to one record in time: answered as an outage, not a hang.
const MAX_WRITE_ATTEMPTS = 100;

export interface CatalogOptions<F extends string> {
  readonly kind: RecordKind<F>;
  readonly repository: RecordRepository<F>;
  /** The change log the repository writes to, read for a record's history. */
  readonly changes: ChangeLog;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The largest page a list may ask for. */
  readonly maxPageSize: number;
}

/** One page of a list, and the page after it when more records follow within reach. */
export interface ListedPage<F extends string> {
  readonly records: CatalogRecord<F>[];
  /**
   * The next page of a plain list (no search, sort or cursor). Unset on the last page, and
   * where the next page's `skip` would pass `MAX_SKIP`.
   */
  readonly next?: Page;
  /** The cursor of the next page of a search, sort or cursor walk; unset on the last page. */
  readonly nextAfter?: ListCursor;
  /** With `count`, how many records match the search (all of them without one). */
  readonly total?: number;
}

/**
 * The page a list asks for: `skip` defaults to 0, `limit` to the largest page. Given `q`,
 * `sort` or `after`, the list is a query: `q` keeps the records whose folded text contains
 * it, `sort` names the order (`createdAt`, `updatedAt` or the text field, `-` for
 * descending), `after` is a cursor a previous page gave (`nextAfter`).
 */
export interface PageRequest {
  readonly skip?: number | undefined;
  readonly limit?: number | undefined;
  readonly q?: string | undefined;
  readonly sort?: string | undefined;
  readonly after?: unknown;
  readonly count?: boolean | undefined;
}

/** Which changes of a record to read: those after the change with id `after` (absent or `0`: from its first), at most `limit`. */
export interface HistoryRequest {
  readonly after?: string | undefined;
  readonly limit?: number | undefined;
}

/** A page of a record's history, and the `after` of the next page while more follow. */
export interface HistoryPage<F extends string> {
  readonly changes: Change<F>[];
  readonly next?: string;
}

/** Who makes a write: a name kept with its change (`Change.by`), such as an API key's name. */
export interface WriteOptions {
  readonly by?: string | undefined;
}

/** The five operations on one kind of record: create, update, find, list and delete. */
export class Catalog<F extends string> {
  readonly kind: RecordKind<F>;
  readonly maxPageSize: number;
  readonly #repository: RecordRepository<F>;
  readonly #changes: ChangeLog;
  readonly #clock: Clock;
  readonly #ids: IdGenerator;

  constructor(options: CatalogOptions<F>) {
    this.kind = options.kind;
    this.maxPageSize = options.maxPageSize;
    this.#repository = options.repository;
    this.#changes = options.changes;
    this.#clock = options.clock;
    this.#ids = options.ids;
  }

  /**
   * Creates a record from a document holding its text field, such as `{ value: '12x36' }`;
   * other members are ignored. The document is checked at run time whatever its type says.
   */
  async create(document: RecordInput<F>, options: WriteOptions = {}): Promise<CatalogRecord<F>> {
    const text = this.#readText(document);
    const now = this.#clock.now();
    const record = assembleRecord(this.kind, { id: this.#ids.next(), text, createdAt: now, updatedAt: now });
    await this.#repository.insert(creationOf(this.kind, record, options.by), uniquenessKey(text));
    return record;
  }

  /**
   * Replaces the text of the record with this id; `updatedAt` always moves forward. With
   * `expected`, only while the record is at one of those revisions (else `stale`).
   */
  async update(id: string, document: RecordInput<F>, expected?: ExpectedRevisions, options: WriteOptions = {}): Promise<CatalogRecord<F>> {
    const text = this.#readText(document);
    const key = uniquenessKey(text);
    return await this.#writeIfUnchanged(id, expected, async (current) => {
      const updatedAt = laterThan(current.updatedAt, this.#clock.now());
      const data = assembleRecord(this.kind, { id, text, createdAt: current.createdAt, updatedAt });
      const written = await this.#repository.update(updateOf(this.kind, current, data, options.by), key);
      return written === undefined ? undefined : data;
    });
  }

  /** Finds the record with exactly this id; `options.signal` calls the read off. */
  async find(id: string, options?: ReadOptions): Promise<CatalogRecord<F>> {
    const record = await this.#repository.findById(id, options);
    if (record === undefined) throw WorkplanError.notFound(id);
    return record;
  }

  /**
   * Lists records oldest first, passing over `skip` and returning at most `limit`, or, given
   * `q`, `sort` or `after`, a page of that query; `options.signal` calls the read off.
   */
  async list(request: PageRequest = {}, options?: ReadOptions): Promise<ListedPage<F>> {
    const page = { skip: request.skip ?? 0, limit: request.limit ?? this.maxPageSize };
    this.#checkPage(page);
    const search = request.q === undefined ? undefined : searchOf(request.q);
    const count = request.count ?? false;
    // Checked here whatever the type says, as a document is: a caller may pass what a query string parsed to.
    if (typeof count !== 'boolean') throw WorkplanError.invalidQuery({ parameter: 'count', rule: { kind: 'boolean' } });
    if (search === undefined && request.sort === undefined && request.after === undefined) {
      return this.#plainList(page, count, options);
    }
    const order = request.sort === undefined ? CREATION_ORDER : orderOf(request.sort, this.kind.field);
    const after = request.after === undefined ? undefined : readCursor(request.after, this.kind, order, search);
    const query = { search, order, after, skip: page.skip, limit: page.limit + 1, count };
    const { records, total } = await this.#repository.query(query, options);
    const counted = total === undefined ? {} : { total };
    const last = records[page.limit - 1];
    if (records.length <= page.limit || last === undefined) return { records, ...counted };
    const nextAfter = cursorOf(this.kind, order, search, positionOf(last, this.kind.field, order));
    return { records: records.slice(0, page.limit), nextAfter, ...counted };
  }

  async #plainList(page: Page, count: boolean, options: ReadOptions | undefined): Promise<ListedPage<F>> {
    // One record more than asked tells whether a next page exists without counting.
    const listed = this.#repository.list({ skip: page.skip, limit: page.limit + 1 }, options);
    const [records, total] = await Promise.all([listed, count ? this.#repository.count(options) : undefined]);
    const counted = total === undefined ? {} : { total };
    if (records.length <= page.limit) return { records, ...counted };
    const next = { skip: page.skip + page.limit, limit: page.limit };
    return next.skip <= MAX_SKIP ? { records: records.slice(0, page.limit), next, ...counted } : { records: records.slice(0, page.limit), ...counted };
  }

  /** Deletes the record with this id; with `expected`, only while it is at one of those revisions (else `stale`). */
  async delete(id: string, expected?: ExpectedRevisions, options: WriteOptions = {}): Promise<void> {
    // The deletion names the state it removes (its change's `previous`), so it is conditional too.
    await this.#writeIfUnchanged(id, expected, (current) =>
      this.#repository.delete(deletionOf(this.kind, current, laterThan(current.updatedAt, this.#clock.now()), options.by)),
    );
  }

  /**
   * A page of the changes kept of the record with this id, oldest first, also after it was
   * deleted: paged as the feed is (`checkChangesPage`, its default and largest page),
   * `next` set while more follow.
   * `notFound` when none is kept and no record has the id, whatever `after` says (before
   * `cursorExpired`, which only a known record's walk can meet). A record stored before
   * changes were kept has none until its next write.
   */
  async history(id: string, request: HistoryRequest = {}, options?: ReadOptions): Promise<HistoryPage<F>> {
    const { after, limit } = checkChangesPage(request);
    // One change more than asked tells whether a next page exists.
    const changes = (await this.#changes.history(this.kind.name, id, after, limit + 1, options).catch(async (error: unknown) => {
      if (error instanceof WorkplanError && error.kind === 'cursorExpired') await this.#findKnown(id, options);
      throw error;
    })) as Change<F>[];
    if (changes.length === 0 && after > 0) await this.#findKnown(id, options);
    else if (changes.length === 0) await this.find(id, options);
    if (changes.length <= limit) return { changes };
    const page = changes.slice(0, limit);
    return { changes: page, next: (page.at(-1) as Change<F>).id };
  }

  /** `notFound` unless a change of the id is kept or a record has it. */
  async #findKnown(id: string, options?: ReadOptions): Promise<void> {
    if ((await this.#changes.history(this.kind.name, id, 0, 1, options)).length === 0) await this.find(id, options);
  }

  /**
   * Reads the record, checks it is at an expected revision, and writes with the `updatedAt`
   * it read as the storage's condition, so the check and the write act on one state. A
   * write that finds nothing to change (the record changed or went meanwhile) starts over
   * from a new read: this is what keeps `updatedAt`, and so the revision, unique per state.
   */
  async #writeIfUnchanged<T>(
    id: string,
    expected: ExpectedRevisions | undefined,
    write: (current: CatalogRecord<F>) => Promise<T | undefined>,
  ): Promise<T> {
    for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt += 1) {
      const current = await this.find(id);
      if (!isAtExpectedRevision(current, expected)) throw WorkplanError.stale(id);
      const written = await write(current);
      if (written !== undefined) return written;
    }
    throw WorkplanError.storageUnavailable(new Error(`record ${id} changed under each of ${MAX_WRITE_ATTEMPTS} writes in a row`));
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

  #checkPage(page: Page): void {
    checkPage(page, this.maxPageSize);
  }
}

/**
 * Refuses a page a list cannot take (`invalidPage`): `skip` from 0 to `MAX_SKIP`, `limit`
 * from 1 to `maxPageSize`. An adapter that reads more of a list request than its page checks
 * the page first with this, so a bad page is what it answers, as a list would.
 */
export function checkPage({ skip, limit }: Page, maxPageSize: number): void {
  if (!Number.isSafeInteger(skip) || skip < 0 || skip > MAX_SKIP) {
    throw WorkplanError.invalidPage({ parameter: 'skip', rule: { kind: 'wholeNumber', min: 0, max: MAX_SKIP } });
  }
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > maxPageSize) {
    throw WorkplanError.invalidPage({ parameter: 'limit', rule: { kind: 'wholeNumber', min: 1, max: maxPageSize } });
  }
}

/** `now`, unless the clock has not moved past `previous`: then one millisecond after it. */
function laterThan(previous: Date, now: Date): Date {
  return now.getTime() > previous.getTime() ? now : new Date(previous.getTime() + 1);
}
