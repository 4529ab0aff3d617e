import {
  type CallOptions,
  type HistoryPage,
  type HistoryRequest,
  type Page,
  type PageRequest,
  type RecordChange,
  type ResourceClient,
  type ResourceName,
  type WorkplanClient,
  type WorkplanRecord,
} from '@workplan/client';
import { type ConsoleKind } from './kinds.js';
import { PAGE_SIZES } from './list-query.js';
import { resourceWords, type ResourceWords } from './texts.js';

/** A record of either resource; its text is read through the resource's `textOf`. */
export type AnyRecord = WorkplanRecord<string>;

/** A condition on a write: the record as last read, whose entity tag the client remembers. */
export type WriteOptions = CallOptions & { readonly ifMatch?: AnyRecord };

/** One resource as the screens use it: the same operations for both, on the record's text. */
export interface Records {
  create(text: string, options?: CallOptions): Promise<AnyRecord>;
  update(id: string, text: string, options?: WriteOptions): Promise<AnyRecord>;
  find(id: string, options?: CallOptions): Promise<AnyRecord>;
  listPage(page?: PageRequest, options?: CallOptions): Promise<Page<string>>;
  pages(first?: PageRequest, options?: CallOptions): AsyncGenerator<Page<string>, void>;
  delete(id: string, options?: WriteOptions): Promise<void>;
  history(id: string, options?: CallOptions): Promise<RecordChange[]>;
  historyPage(id: string, page?: HistoryRequest, options?: CallOptions): Promise<HistoryPage<string>>;
}

/** What the console knows of a resource: where it lives in the page, its words, its field. */
export interface ConsoleResource {
  /** Its part of the page's address: `#/escalas`, `#/escalas/{id}`. */
  readonly slug: string;
  /** The API's name for it, as a change says which resource it is of. */
  readonly name: ResourceName;
  readonly words: ResourceWords;
  /** The API's name of its text field, which is also the list's `sort` by text. */
  readonly field: string;
  readonly textOf: (record: AnyRecord) => string;
  readonly recordsOf: (client: WorkplanClient) => Records;
  /** The page sizes the list offers: the console's, but none past the service's maximum (the smallest always). */
  readonly pageSizes: readonly number[];
}

// The one place the field's name is used: the screens only ever see a record's text.
function consoleResource(kind: ConsoleKind): ConsoleResource {
  const { slug, singular, plural, field, maxPageSize } = kind;
  return {
    slug,
    name: singular,
    words: resourceWords(kind),
    field,
    textOf: (record) => record[field] ?? '',
    recordsOf: (client) => recordsOf(client.resource({ singular, plural }), field),
    pageSizes: PAGE_SIZES.filter((size, n) => n === 0 || size <= maxPageSize),
  };
}

function recordsOf<F extends string>(resource: ResourceClient<F>, field: F): Records {
  const input = (text: string) => ({ [field]: text }) as { readonly [K in F]: string };
  const write = (options: WriteOptions | undefined) => options as CallOptions & { readonly ifMatch?: WorkplanRecord<F> };
  return {
    create: (text, options) => resource.create(input(text), options),
    update: (id, text, options) => resource.update(id, input(text), write(options)),
    find: (id, options) => resource.find(id, options),
    // The screens name the text's order by `field`, which is this resource's own.
    listPage: (page, options) => resource.listPage(page as PageRequest<F> | undefined, options),
    pages: (first, options) => resource.pages(first as PageRequest<F> | undefined, options),
    delete: (id, options) => resource.delete(id, write(options)),
    history: (id, options) => resource.history(id, options),
    historyPage: (id, page, options) => resource.historyPage(id, page, options),
  };
}

/** A tab for each kind the service serves, in its order. */
export function consoleResourcesOf(kinds: readonly ConsoleKind[]): readonly ConsoleResource[] {
  return kinds.map(consoleResource);
}
