import { type Catalog, type Page, type RecordBase } from '@workplan/core';

/** The five operations of a resource. */
export type Operation = 'create' | 'update' | 'find' | 'list' | 'delete';

/**
 * The use cases as the HTTP side sees them: it only serialises records, so the name of
 * their text field does not matter here, and one route set serves every resource.
 */
export interface ResourceCatalog {
  readonly maxPageSize: number;
  create(document: unknown): Promise<RecordBase>;
  update(id: string, document: unknown): Promise<RecordBase>;
  find(id: string): Promise<RecordBase>;
  list(page: Page): Promise<{ readonly records: readonly RecordBase[]; readonly hasMore: boolean }>;
  delete(id: string): Promise<void>;
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
  /** A typical text, for the document's examples. */
  readonly sample: string;
  readonly messages: Readonly<Record<Operation, string>>;
}

/** A resource described, with the use cases that serve it. */
export interface HttpResource extends ResourceDescription {
  readonly catalog: ResourceCatalog;
}

/** Work schedules live at `/scale` and `/scales`. */
export const workSchedules: ResourceDescription = {
  name: 'WorkSchedule',
  singular: 'scale',
  plural: 'scales',
  field: 'value',
  one: 'escala de trabalho',
  many: 'escalas de trabalho',
  sample: '12x36',
  messages: {
    create: 'Não foi possível criar a escala de trabalho.',
    update: 'Não foi possível atualizar a escala de trabalho.',
    find: 'Não foi possível retornar a escala de trabalho.',
    list: 'Não foi possível retornar as escalas de trabalho.',
    delete: 'Não foi possível deletar a escala de trabalho.',
  },
};

/** Cost centers live at `/costCenter` and `/costCenters`. */
export const costCenters: ResourceDescription = {
  name: 'CostCenter',
  singular: 'costCenter',
  plural: 'costCenters',
  field: 'title',
  one: 'centro de custo',
  many: 'centros de custo',
  sample: 'Financeiro',
  messages: {
    create: 'Não foi possível criar o centro de custo.',
    update: 'Não foi possível atualizar o centro de custo.',
    find: 'Não foi possível retornar o centro de custo.',
    list: 'Não foi possível retornar os centros de custo.',
    delete: 'Não foi possível deletar o centro de custo.',
  },
};

/** The work schedule resource, served by `catalog`. */
export function workScheduleResource(catalog: Catalog<'value'>): HttpResource {
  return { ...workSchedules, catalog };
}

/** The cost center resource, served by `catalog`. */
export function costCenterResource(catalog: Catalog<'title'>): HttpResource {
  return { ...costCenters, catalog };
}
