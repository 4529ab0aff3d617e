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

/** What the HTTP side knows of one resource: its use cases, path words and seed messages. */
export interface HttpResource {
  readonly catalog: ResourceCatalog;
  /** The path word of one record: `/api/v1/{singular}/{id}`. */
  readonly singular: string;
  /** The path word of the list: `/api/v1/{plural}`. */
  readonly plural: string;
  readonly messages: Readonly<Record<Operation, string>>;
}

/** Work schedules live at `/scale` and `/scales`. */
export function workScheduleResource(catalog: Catalog<'value'>): HttpResource {
  return {
    catalog,
    singular: 'scale',
    plural: 'scales',
    messages: {
      create: 'Não foi possível criar a escala de trabalho.',
      update: 'Não foi possível atualizar a escala de trabalho.',
      find: 'Não foi possível retornar a escala de trabalho.',
      list: 'Não foi possível retornar as escalas de trabalho.',
      delete: 'Não foi possível deletar a escala de trabalho.',
    },
  };
}

/** Cost centers live at `/costCenter` and `/costCenters`. */
export function costCenterResource(catalog: Catalog<'title'>): HttpResource {
  return {
    catalog,
    singular: 'costCenter',
    plural: 'costCenters',
    messages: {
      create: 'Não foi possível criar o centro de custo.',
      update: 'Não foi possível atualizar o centro de custo.',
      find: 'Não foi possível retornar o centro de custo.',
      list: 'Não foi possível retornar os centros de custo.',
      delete: 'Não foi possível deletar o centro de custo.',
    },
  };
}
