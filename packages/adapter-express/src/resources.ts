import {
  type Change,
  type ChangesRequest,
  type ExpectedRevisions,
  type HistoryRequest,
  type KindName,
  type ListCursor,
  type Page,
  type PageRequest,
  type ReadOptions,
  type RecordBase,
  type Workplan,
  type WriteOptions,
} from '@workplan/core';
import { type Gender } from './openapi/portuguese.js';

/** The five operations of a resource. */
export type Operation = 'create' | 'update' | 'find' | 'list' | 'delete';

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

/** What the HTTP side says of one resource: path words, text field, names and seed messages. */
export interface ResourceDescription {
  /** The schema name of its record, e.g. `WorkSchedule`. */
  readonly name: string;
  /** The path word of one record: `/api/v1/{singular}/{id}`. */
  readonly singular: string;
  /** The path word of the list: `/api/v1/{plural}`. */
  readonly plural: string;
  /** The one member a client writes. */
  readonly field: string;
  /** Human names for the API document's summaries, in Portuguese as the messages are. */
  readonly one: string;
  readonly many: string;
  /** The gender of those names: every article and ending the document puts beside them follows it. */
  readonly gender: Gender;
  /** A typical text, for the document's examples. */
  readonly sample: string;
  readonly messages: Readonly<Record<Operation, string>>;
}

/** A resource described, with the use cases that serve it. */
export interface HttpResource extends ResourceDescription {
  readonly catalog: ResourceCatalog;
}

/** What the HTTP side says of each kind of record; a new resource is one more entry. */
export const resourceDescriptions: Readonly<Record<KindName, ResourceDescription>> = {
  workSchedules: {
    name: 'WorkSchedule',
    singular: 'scale',
    plural: 'scales',
    field: 'value',
    one: 'escala de trabalho',
    many: 'escalas de trabalho',
    gender: 'feminine',
    sample: '12x36',
    messages: {
      create: 'Não foi possível criar a escala de trabalho.',
      update: 'Não foi possível atualizar a escala de trabalho.',
      find: 'Não foi possível retornar a escala de trabalho.',
      list: 'Não foi possível retornar as escalas de trabalho.',
      delete: 'Não foi possível deletar a escala de trabalho.',
    },
  },
  costCenters: {
    name: 'CostCenter',
    singular: 'costCenter',
    plural: 'costCenters',
    field: 'title',
    one: 'centro de custo',
    many: 'centros de custo',
    gender: 'masculine',
    sample: 'Financeiro',
    messages: {
      create: 'Não foi possível criar o centro de custo.',
      update: 'Não foi possível atualizar o centro de custo.',
      find: 'Não foi possível retornar o centro de custo.',
      list: 'Não foi possível retornar os centros de custo.',
      delete: 'Não foi possível deletar o centro de custo.',
    },
  },
};

/** Every resource described, in the order the API document lists them. */
export const describedResources: readonly ResourceDescription[] = Object.values(resourceDescriptions);

/** Every resource, served by the workplan's catalog of its kind. */
export function httpResourcesOf(workplan: Workplan): HttpResource[] {
  return (Object.keys(resourceDescriptions) as KindName[]).map((name) => ({
    ...resourceDescriptions[name],
    catalog: workplan[name],
  }));
}

