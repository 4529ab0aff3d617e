import { withCallPolicies, type CallDefaults, type CallOptions } from './call-policies.js';
import { type RecordChange } from './changes.js';
import { type Transport, type TransportAnswer } from './fetch-transport.js';
import { historyPathOf, historyRequestOfLink, type HistoryPage, type HistoryRequest } from './history.js';
import { listPathOf, pageOfLink, type PageRequest } from './list-request.js';
import { type WorkplanRecord } from './records.js';

/** One page of a list, and the page after it when the service says there is one (`Link: rel="next"`). */
export interface Page<F extends string> {
  readonly records: WorkplanRecord<F>[];
  /** The next page to ask for (with its cursor, after a search or an order); undefined on the last page. */
  readonly next: PageRequest<F> | undefined;
  /** Whether more records follow this page. */
  readonly hasMore: boolean;
  /** With `count: true`, how many records match the search (all of them without one); undefined otherwise. */
  readonly total: number | undefined;
}

/**
 * A condition on a write: go ahead only while the record is still as the caller last
 * saw it. `ifMatch` is an entity tag (`"..."`), or a record this client returned, whose
 * tag it remembers; a record changed since gets a `PRECONDITION_FAILED` (412) rejection.
 */
export interface WriteCondition<F extends string> {
  readonly ifMatch: string | WorkplanRecord<F>;
}

/** The options of a write: those of any call, and an optional condition. */
export type WriteOptions<F extends string> = CallOptions & Partial<WriteCondition<F>>;

/** The operations of one resource; each takes a signal, a time limit and a retry policy last. */
export interface ResourceClient<F extends string> {
  /** Creates a record from `{ value }` or `{ title }`. */
  create(input: { readonly [K in F]: string }, options?: CallOptions): Promise<WorkplanRecord<F>>;
  /** Replaces the record's text; with `ifMatch`, only while it is unchanged. */
  update(id: string, input: { readonly [K in F]: string }, options?: WriteOptions<F>): Promise<WorkplanRecord<F>>;
  /** The record with this id; rejects with code `NOT_FOUND` when there is none. */
  find(id: string, options?: CallOptions): Promise<WorkplanRecord<F>>;
  /** Records oldest first, or found and ordered as `page` asks: the first page the service allows, or the page asked for. */
  list(page?: PageRequest<F>, options?: CallOptions): Promise<WorkplanRecord<F>[]>;
  /** Like `list`, with the page that follows it, and the total when `count` is asked for. */
  listPage(page?: PageRequest<F>, options?: CallOptions): Promise<Page<F>>;
  /**
   * Every page from `first` (the service's largest when left out), following `next` to the
   * end, the search and order kept; a cursor's `next` even without a `sort`, which is then
   * `createdAt`, the plain list's order.
   */
  pages(first?: PageRequest<F>, options?: CallOptions): AsyncGenerator<Page<F>, void>;
  /** Deletes the record; rejects with code `NOT_FOUND` when there is none; with `ifMatch`, only while it is unchanged. */
  delete(id: string, options?: WriteOptions<F>): Promise<void>;
  /**
   * Every write of the record kept on record, oldest first, also after it was deleted, read
   * page by page (`historyPages`); code `NOT_FOUND` for an id that never existed.
   */
  history(id: string, options?: CallOptions): Promise<RecordChange<F>[]>;
  /** One page of the record's history, from its first change kept or after `page.after`, with the page that follows it. */
  historyPage(id: string, page?: HistoryRequest, options?: CallOptions): Promise<HistoryPage<F>>;
  /** Every page of the record's history from `first` (its first page when left out), following `next` to the end. */
  historyPages(id: string, first?: HistoryRequest, options?: CallOptions): AsyncGenerator<HistoryPage<F>, void>;
}

/** The largest page of a history the service gives (its contract: 1 to 1000 changes). */
const MAX_HISTORY_PAGE = 1000;

// The tag of each record object this client returned; a record's JSON stays as the
// service sends it, and a record dropped by the caller is dropped here too.
const entityTags = new WeakMap<object, string>();

/** The entity tag the service sent with `record`, when this client returned that very object from create, find or update. */
export function entityTagOf(record: WorkplanRecord<string>): string | undefined {
  return entityTags.get(record);
}

function ifMatchHeader<F extends string>(options: WriteOptions<F> | undefined): Record<string, string> {
  const ifMatch = options?.ifMatch;
  if (ifMatch === undefined) return {};
  const tag = typeof ifMatch === 'string' ? ifMatch : entityTagOf(ifMatch);
  if (tag === undefined) throw new TypeError('ifMatch names a record this client did not return, so its entity tag is unknown');
  return { 'if-match': tag };
}

/** Where a resource lives: `/api/v1/{singular}/{id}` and `/api/v1/{plural}`. */
export interface ResourcePaths {
  readonly singular: string;
  readonly plural: string;
}

/** One implementation for every resource: only the paths differ. */
export function resourceClient<F extends string>(send: Transport, { singular, plural }: ResourcePaths, defaults: CallDefaults = {}): ResourceClient<F> {
  const one = (id: string) => {
    // A URL takes `.` and `..` (even as %2E) as steps in the path, not as an id: the call would reach another route.
    if (id === '.' || id === '..') throw new TypeError(`the id ${JSON.stringify(id)} cannot be sent in a URL path (no record the service made has it)`);
    return `/api/v1/${singular}/${encodeURIComponent(id)}`;
  };
  const call = (options: CallOptions | undefined, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    withCallPolicies((signal) => send(method, path, body, headers, signal), options, defaults);
  // The service returns what the document's schema for F says; the transport checked the envelope.
  const record = async (pending: Promise<TransportAnswer>) => {
    const { data, entityTag } = await pending;
    const answered = data as WorkplanRecord<F>;
    if (entityTag !== undefined) entityTags.set(answered, entityTag);
    return answered;
  };
  const listPage = async (page?: PageRequest<F>, options?: CallOptions): Promise<Page<F>> => {
    const answer = await call(options, 'GET', listPathOf(plural, page));
    const next = answer.next === undefined ? undefined : pageOfLink<F>(plural, answer.next);
    return { records: answer.data as WorkplanRecord<F>[], next, hasMore: next !== undefined, total: answer.total };
  };
  const historyPage = async (id: string, page?: HistoryRequest, options?: CallOptions): Promise<HistoryPage<F>> => {
    const answer = await call(options, 'GET', historyPathOf(`${one(id)}/history`, page));
    const next = answer.next === undefined ? undefined : historyRequestOfLink(answer.next);
    return { changes: answer.data as RecordChange<F>[], next, hasMore: next !== undefined };
  };
  const historyPages = async function* (id: string, first?: HistoryRequest, options?: CallOptions): AsyncGenerator<HistoryPage<F>, void> {
    for (let page: HistoryRequest | undefined = first ?? {}; page !== undefined; ) {
      const read = await historyPage(id, page, options);
      yield read;
      page = read.next;
    }
  };
  return {
    create: (input, options) => record(call(options, 'POST', `/api/v1/${singular}`, input)),
    update: async (id, input, options) => record(call(options, 'PUT', one(id), input, ifMatchHeader(options))),
    find: async (id, options) => record(call(options, 'GET', one(id))),
    list: async (page, options) => (await listPage(page, options)).records,
    listPage,
    pages: async function* (first, options) {
      // The plain list's own order named: its next pages then follow a cursor, not a skip, so
      // a record deleted behind the walk pushes none out of sight.
      let page = await listPage(first?.after === undefined && first?.sort === undefined ? { ...first, sort: 'createdAt' } : first, options);
      yield page;
      while (page.next !== undefined) {
        page = await listPage(page.next, options);
        yield page;
      }
    },
    delete: async (id, options) => {
      await call(options, 'DELETE', one(id), undefined, ifMatchHeader(options));
    },
    history: async (id, options) => {
      const changes: RecordChange<F>[] = [];
      // The largest page: the fewest calls for a whole history.
      for await (const page of historyPages(id, { limit: MAX_HISTORY_PAGE }, options)) changes.push(...page.changes);
      return changes;
    },
    historyPage,
    historyPages,
  };
}
