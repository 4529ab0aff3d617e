import {
  type Change,
  type ChangesRequest,
  type ExpectedRevisions,
  type HistoryRequest,
  type KindDescription,
  type Kinds,
  type ListCursor,
  type Page,
  type PageRequest,
  type ReadOptions,
  type RecordBase,
  type Workplan,
  type WriteOptions,
} from '@workplan/core';

/**
 * The use cases as the HTTP side sees them: it only serialises records, so the name of
 * their text field does not matter here, and one route set serves every resource. A
 * catalog types its input by field but checks whatever it is given at run time, so the
 * HTTP side hands it the parsed body as it arrived.
 */
export interface ResourceCatalog {
  /** The kind of record it serves: its changes name it (`Change.kind`). */
  readonly kind: { readonly name: string };
  /** The largest page a list may ask for. */
  readonly maxPageSize: number;
  create(document: unknown, options?: WriteOptions): Promise<RecordBase>;
  update(id: string, document: unknown, expected?: ExpectedRevisions, options?: WriteOptions): Promise<RecordBase>;
  find(id: string, options?: ReadOptions): Promise<RecordBase>;
  list(page: PageRequest, options?: ReadOptions): Promise<ListedRecords>;
  delete(id: string, expected?: ExpectedRevisions, options?: WriteOptions): Promise<void>;
  history(id: string, request?: HistoryRequest, options?: ReadOptions): Promise<{ readonly changes: readonly RecordChange[]; readonly next?: string }>;
}

/** A change as the HTTP side reads it: the core's `Change` of any kind. */
export type RecordChange = Omit<Change, 'data' | 'previous'> & {
  readonly data: RecordBase | null;
  readonly previous: RecordBase | null;
};

/** The changes feed as the HTTP side reads it: the core's `ChangeFeed`. */
export interface ChangesFeed {
  read(request: ChangesRequest, options?: ReadOptions): Promise<{ readonly changes: readonly RecordChange[]; readonly next: string }>;
}

/** What the HTTP side says of the changes feed: the path word and the message of its failures. */
export const changesDescription = {
  path: 'changes',
  message: 'Não foi possível retornar as alterações.',
} as const;

/** What the HTTP side says of the webhooks' state (an `ApiRead` the app composes): the path word and the message of its failures. */
export const webhooksDescription = {
  path: 'webhooks',
  message: 'Não foi possível retornar os webhooks.',
} as const;

/** A page of a list as the HTTP side reads it: the core's `ListedPage` of any kind. */
export interface ListedRecords {
  readonly records: readonly RecordBase[];
  /** The next page of a plain list. */
  readonly next?: Page;
  /** The cursor of the next page of a search, order or cursor walk. */
  readonly nextAfter?: ListCursor;
  /** How many records match, when the list asked to count them. */
  readonly total?: number;
}

/** A resource described, with the use cases that serve it. */
export interface HttpResource extends KindDescription {
  readonly catalog: ResourceCatalog;
}

/** Every kind the workplan serves, in its order, each served by the workplan's catalog of that kind. */
export function httpResourcesOf<K extends Kinds>(workplan: Workplan<K>): HttpResource[] {
  const resources = Object.keys(workplan.kinds).map((name: keyof K & string) => ({ ...workplan.kinds[name], catalog: workplan[name] }));
  const ownWords: readonly string[] = [changesDescription.path, webhooksDescription.path];
  const taken = resources.flatMap((resource) => [resource.singular, resource.plural]).find((word) => ownWords.includes(word));
  if (taken !== undefined) throw new TypeError(`a kind of record may not take the path word "${taken}": /api/v1/${taken} is the API's own`);
  return resources;
}
