/** What every record carries besides its one text field. */
export interface RecordBase {
  readonly id: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A record whose text lives in the field named `F`. */
export type CatalogRecord<F extends string> = RecordBase & { readonly [K in F]: string };

/**
 * What a caller writes to create or update a record of a kind: its one text field, such as
 * `{ value: '12x36' }`. The catalog checks it at run time all the same (a JavaScript caller
 * or a parsed JSON body brings no types), and ignores any other member.
 */
export type RecordInput<F extends string> = { readonly [K in F]: string };

/** Describes one kind of record: what it is called and which field holds its text. */
export interface RecordKind<F extends string> {
  readonly name: string;
  readonly field: F;
}

/** A work schedule (escala de trabalho), such as "12x36" or "6x1". */
export type WorkSchedule = CatalogRecord<'value'>;

/** A cost center (centro de custo), such as "Financeiro". */
export type CostCenter = CatalogRecord<'title'>;

/** What creates or updates a work schedule: `{ value: '12x36' }`. */
export type WorkScheduleInput = RecordInput<'value'>;

/** What creates or updates a cost center: `{ title: 'Financeiro' }`. */
export type CostCenterInput = RecordInput<'title'>;


/** The parts of a record, independent of what its text field is called. */
export interface RecordParts {
  readonly id: string;
  readonly text: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Builds a record of a kind from its parts: the one place a field name becomes a key. */
export function assembleRecord<F extends string>(kind: RecordKind<F>, parts: RecordParts): CatalogRecord<F> {
  // Members in the order the JSON shows them. A computed key makes an own member whatever
  // its name (`__proto__` too); the compiler cannot type it as F, but the shape is exactly CatalogRecord<F>.
  return { id: parts.id, [kind.field]: parts.text, createdAt: parts.createdAt, updatedAt: parts.updatedAt } as CatalogRecord<F>;
}
