import { WorkplanError } from './errors.js';
import { type CatalogRecord, type RecordKind } from './record.js';
import { MAX_TEXT_LENGTH } from './text-rules.js';

/**
 * Text as a search and the text order compare it: trimmed, case folded, runs of white space
 * as one space, diacritics removed and compatibility forms taken apart, so `manutencao`
 * finds `Manutenção Elétrica`, `ss` finds `Straße`, `Álvaro` sorts beside `alvaro`, not
 * after `Z`, and `Nº 5` beside `no 5`, as a Portuguese collation would put them. Storages
 * keep it beside the text (a database with no Portuguese collation, such as FerretDB,
 * orders by it), so it must not change for a stored text: a change here is a migration of
 * every storage, and a new `FOLD_VERSION`.
 */
export function foldText(text: string): string {
  // Upper then lower case folds what lower case alone leaves (ß is ss, ﬁ is fi), lower case
  // first so that ẞ, whose upper case is itself, goes to ß and on to ss; a final sigma is a
  // sigma. Upper case may bring back marks (ΐ), so they go after it too.
  const caseFolded = withoutMarks(text).toLowerCase().toUpperCase().toLowerCase().replace(/ς/gu, 'σ');
  return withoutMarks(caseFolded).replace(/\s+/gu, ' ').trim().normalize('NFC');
}

/** The version of `foldText`: a storage that keeps folded texts folds again those of an older one. */
export const FOLD_VERSION = 2;

/** `text` in its compatibility decomposition (ª is a, º is o, ﬁ is fi), combining marks dropped. */
function withoutMarks(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '');
}

/** What a list is ordered by: `text` is the kind's text field (`value`, `title`), in folded order. */
export type SortField = 'createdAt' | 'updatedAt' | 'text';

/** A list's order; ties are always broken by `id` ascending, whatever the direction. */
export interface RecordOrder {
  readonly field: SortField;
  readonly descending: boolean;
}

/** The order of a plain list: oldest first. */
export const CREATION_ORDER: RecordOrder = Object.freeze({ field: 'createdAt', descending: false });

/**
 * A record's place in an order: its sort value (`createdAt` or `updatedAt` in epoch
 * milliseconds, or its folded text) and its id. A walk goes on after the last record it
 * returned, so records created or deleted meanwhile neither shift nor repeat the ones
 * that remain.
 */
export interface ListPosition {
  readonly value: number | string;
  readonly id: string;
}

/** What a storage answers a query with. */
export interface RecordQuery {
  /** Folded (`foldText`) text the records' folded text must contain; undefined: every record. */
  readonly search?: string | undefined;
  readonly order: RecordOrder;
  /** Start after this record's place (exclusive); undefined: from the first. */
  readonly after?: ListPosition | undefined;
  /** Records to pass over (after `after`, if given) before the page. */
  readonly skip: number;
  readonly limit: number;
  /** Also count every record that matches `search`, whatever the page. */
  readonly count: boolean;
}

/** A page of a query, and, when asked for, how many records match it in all. */
export interface FoundRecords<F extends string> {
  readonly records: CatalogRecord<F>[];
  readonly total?: number | undefined;
}

/** The place of `record` in `order`, with its text in `field`. */
export function positionOf<F extends string>(record: CatalogRecord<F>, field: F, order: RecordOrder): ListPosition {
  if (order.field === 'text') return { value: foldText(record[field]), id: record.id };
  return { value: record[order.field].getTime(), id: record.id };
}

/**
 * Compares two places in `order`: negative when `a` comes first. Storages that sort in
 * JavaScript use it; the others sort the same way (code point order of the folded text).
 */
export function comparePositions(a: ListPosition, b: ListPosition, order: RecordOrder): number {
  const byValue = typeof a.value === 'string' && typeof b.value === 'string' ? compareText(a.value, b.value) : a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  if (byValue !== 0) return order.descending ? -byValue : byValue;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Compares texts by code point, as SQLite and MongoDB compare their UTF-8 bytes. JavaScript's
 * `<` compares UTF-16 code units, which puts a character above U+FFFF (its surrogates) before
 * one of U+E000 to U+FFFF: at the first unit that differs, surrogates are moved above those.
 */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    const unitA = a.charCodeAt(index);
    const unitB = b.charCodeAt(index);
    if (unitA !== unitB) return codePointRank(unitA) - codePointRank(unitB);
  }
  return a.length - b.length;
}

/** A UTF-16 unit's rank in code point order: surrogates (U+D800 to U+DFFF) above U+E000 to U+FFFF. */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}

/**
 * The cursor a next page is asked for with: the query it belongs to and where it stopped,
 * as plain JSON (the HTTP adapter makes it opaque). `search` is the folded search, or null.
 */
export type ListCursor = readonly [kind: string, field: SortField, descending: boolean, search: string | null, value: number | string, id: string];

export function cursorOf(kind: RecordKind<string>, order: RecordOrder, search: string | undefined, position: ListPosition): ListCursor {
  return [kind.name, order.field, order.descending, search ?? null, position.value, position.id];
}

/**
 * Reads a cursor back for the query it is used with: anything that is not a cursor, or is
 * one made for another order or search, is refused as an invalid query.
 */
export function readCursor(value: unknown, kind: RecordKind<string>, order: RecordOrder, search: string | undefined): ListPosition {
  if (!Array.isArray(value) || value.length !== 6) throw notACursor();
  const [cursorKind, field, descending, cursorSearch, position, id] = value as unknown[];
  if (cursorKind !== kind.name || field !== order.field || descending !== order.descending || cursorSearch !== (search ?? null)) {
    throw notACursor();
  }
  const valueFits = field === 'text' ? typeof position === 'string' && position.isWellFormed() : Number.isSafeInteger(position);
  if (!valueFits || typeof id !== 'string' || id.length === 0 || id.length > 64 || !id.isWellFormed()) {
    throw notACursor();
  }
  return { value: position as number | string, id };
}

/** The refusal of an `after` that is no cursor of the list it is used with. */
export function notACursor(): WorkplanError {
  return WorkplanError.invalidQuery({ parameter: 'after', rule: { kind: 'listCursor' } });
}

/** The longest search, in code points after trimming. */
export const MAX_SEARCH_LENGTH = MAX_TEXT_LENGTH;

/**
 * The folded search of a `q`, or undefined for one that is no filter: empty, or folding to
 * nothing (combining marks alone), which every text contains.
 */
export function searchOf(q: unknown): string | undefined {
  const refused = WorkplanError.invalidQuery({ parameter: 'q', rule: { kind: 'search', maxLength: MAX_SEARCH_LENGTH } });
  if (typeof q !== 'string' || !q.isWellFormed()) throw refused;
  // Counted as a record's text is: once in NFC, so é typed as e and an accent is one.
  const trimmed = q.normalize('NFC').trim();
  if (trimmed.length === 0) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-misused-spread -- code points, as the text rules count them
  if ([...trimmed].length > MAX_SEARCH_LENGTH) throw refused;
  const search = foldText(trimmed);
  return search.length === 0 ? undefined : search;
}

/** Every `sort` a list of a kind with `textField` takes: `createdAt`, `updatedAt` and the text field, each also descending (a leading `-`). */
export function sortsOf(textField: string): string[] {
  return ['createdAt', 'updatedAt', textField].flatMap((name) => [name, `-${name}`]);
}

/** The order a `sort` names, one of `sortsOf(textField)`. */
export function orderOf(sort: unknown, textField: string): RecordOrder {
  if (typeof sort !== 'string' || !sortsOf(textField).includes(sort)) {
    throw WorkplanError.invalidQuery({ parameter: 'sort', rule: { kind: 'oneOf', values: sortsOf(textField) } });
  }
  const descending = sort.startsWith('-');
  const name = descending ? sort.slice(1) : sort;
  return name === 'createdAt' || name === 'updatedAt' ? { field: name, descending } : { field: 'text', descending };
}
