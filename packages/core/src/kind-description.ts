import { type RecordKind } from './record.js';

/** The five operations of a resource, each with its message when it fails. */
export type Operation = 'create' | 'update' | 'find' | 'list' | 'delete';

/** The grammatical gender of a Portuguese noun: its articles and the words that describe it agree with it. */
export type Gender = 'feminine' | 'masculine';

/**
 * Everything said of one kind of record, in one place: what the storage, the routes, the
 * API document, the console and the contract suites read of it. A new resource is one more.
 */
export interface KindDescription<F extends string = string> extends RecordKind<F> {
  /** The schema name of its record in the API document, e.g. `WorkSchedule`. */
  readonly schema: string;
  /** The path word of one record: `/api/v1/{singular}/{id}`; also a change's `resource`. */
  readonly singular: string;
  /** The path word of the list: `/api/v1/{plural}`. */
  readonly plural: string;
  /** Its Portuguese names, one and many, as the messages, the document and the console say them. */
  readonly one: string;
  readonly many: string;
  /** The gender of those names: every article and ending put beside them follows it. */
  readonly gender: Gender;
  /** The Portuguese name of its text field, as the console labels it and heads its column: "Valor". */
  readonly label: string;
  /** A typical text, for the document's examples and the console's placeholder. */
  readonly sample: string;
  /** Its part of the console's address: `#/escalas`. */
  readonly slug: string;
  /** The seed's message of each operation's failure, byte for byte. */
  readonly messages: Readonly<Record<Operation, string>>;
}

/** The kinds of record a workplan serves, under the names of their catalogs (`workSchedules`). */
export type Kinds = Readonly<Record<string, KindDescription>>;

/** A work schedule (escala de trabalho), such as "12x36" or "6x1". */
export const workSchedule: KindDescription<'value'> = Object.freeze({
  name: 'workSchedule',
  field: 'value',
  schema: 'WorkSchedule',
  singular: 'scale',
  plural: 'scales',
  one: 'escala de trabalho',
  many: 'escalas de trabalho',
  gender: 'feminine',
  label: 'Valor',
  sample: '12x36',
  slug: 'escalas',
  messages: Object.freeze({
    create: 'Não foi possível criar a escala de trabalho.',
    update: 'Não foi possível atualizar a escala de trabalho.',
    find: 'Não foi possível retornar a escala de trabalho.',
    list: 'Não foi possível retornar as escalas de trabalho.',
    delete: 'Não foi possível deletar a escala de trabalho.',
  }),
});

/** A cost center (centro de custo), such as "Financeiro". */
export const costCenter: KindDescription<'title'> = Object.freeze({
  name: 'costCenter',
  field: 'title',
  schema: 'CostCenter',
  singular: 'costCenter',
  plural: 'costCenters',
  one: 'centro de custo',
  many: 'centros de custo',
  gender: 'masculine',
  label: 'Título',
  sample: 'Financeiro',
  slug: 'centros-de-custo',
  messages: Object.freeze({
    create: 'Não foi possível criar o centro de custo.',
    update: 'Não foi possível atualizar o centro de custo.',
    find: 'Não foi possível retornar o centro de custo.',
    list: 'Não foi possível retornar os centros de custo.',
    delete: 'Não foi possível deletar o centro de custo.',
  }),
});

/** The two kinds of the seed, served unless told otherwise; the API document lists them in this order. */
export const seedKinds = Object.freeze({ workSchedules: workSchedule, costCenters: costCenter } as const);

/** The seed's kinds, as a type. */
export type SeedKinds = typeof seedKinds;
