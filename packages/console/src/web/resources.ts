import { type CallOptions, type Page, type PageRequest, type ResourceClient, type WorkplanClient, type WorkplanRecord } from '@workplan/client';
import { words, type ResourceWords } from './texts.js';

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
}

/** What the console knows of a resource: where it lives in the page, its words, its field. */
export interface ConsoleResource {
  /** Its part of the page's address: `#/escalas`, `#/escalas/{id}`. */
  readonly slug: string;
  readonly words: ResourceWords;
  readonly textOf: (record: AnyRecord) => string;
  readonly recordsOf: (client: WorkplanClient) => Records;
}

// The one place the field's name is used: the screens only ever see a record's text.
function recordsOf<F extends string>(resource: ResourceClient<F>, field: F): Records {
  const input = (text: string) => ({ [field]: text }) as { readonly [K in F]: string };
  const write = (options: WriteOptions | undefined) => options as CallOptions & { readonly ifMatch?: WorkplanRecord<F> };
  return {
    create: (text, options) => resource.create(input(text), options),
    update: (id, text, options) => resource.update(id, input(text), write(options)),
    find: (id, options) => resource.find(id, options),
    // The screens name orders by the field they show, which is this resource's own.
    listPage: (page, options) => resource.listPage(page as PageRequest<F> | undefined, options),
    pages: (first, options) => resource.pages(first as PageRequest<F> | undefined, options),
    delete: (id, options) => resource.delete(id, write(options)),
  };
}

export const consoleResources: readonly ConsoleResource[] = [
  { slug: 'escalas', words: words.scales, textOf: (record) => record.value ?? '', recordsOf: (client) => recordsOf(client.scales, 'value') },
  {
    slug: 'centros-de-custo',
    words: words.costCenters,
    textOf: (record) => record.title ?? '',
    recordsOf: (client) => recordsOf(client.costCenters, 'title'),
  },
];
