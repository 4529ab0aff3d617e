// The kinds of record the console shows a tab for are the service's, read when the page
// starts (`kinds.json`, which the app serves beside the page from the same descriptions
// its routes are built from), so a kind the service serves needs nothing here.

/** What the console knows of a kind of record: its path words, its field and its words for people. */
export interface ConsoleKind {
  /** The path word of one record, also a change's `resource`: `scale`. */
  readonly singular: string;
  /** The path word of the list: `scales`. */
  readonly plural: string;
  /** The API's name of its text field: `value`. */
  readonly field: string;
  /** Its nouns, one and many, without article: "escala de trabalho", "escalas de trabalho". */
  readonly one: string;
  readonly many: string;
  /** The nouns' gender, which articles and participles agree with. */
  readonly gender: 'feminine' | 'masculine';
  /** The text field's label, and the column and CSV header: "Valor". */
  readonly label: string;
  /** A typical text, shown as the field's placeholder: "12x36". */
  readonly sample: string;
  /** Its part of the page's address: `#/escalas`. */
  readonly slug: string;
  /** The largest page a list of it may ask for (the service's LIST_MAX_LIMIT). */
  readonly maxPageSize: number;
}

const TEXT_MEMBERS = ['singular', 'plural', 'field', 'one', 'many', 'label', 'sample', 'slug'] as const;

/** The kinds in `json` (the body of `kinds.json`); throws when it is not a list of them. */
export function kindsOf(json: unknown): ConsoleKind[] {
  if (!Array.isArray(json) || json.length === 0) throw new TypeError('kinds.json holds no list of kinds');
  return json.map((kind: unknown, index) => {
    if (typeof kind !== 'object' || kind === null) throw new TypeError(`kinds.json: kind ${String(index)} is no object`);
    const member = (name: string): unknown => (kind as Record<string, unknown>)[name];
    const missing = TEXT_MEMBERS.find((name) => typeof member(name) !== 'string' || member(name) === '');
    if (missing !== undefined) throw new TypeError(`kinds.json: kind ${String(index)} has no ${missing}`);
    const gender = member('gender');
    if (gender !== 'feminine' && gender !== 'masculine') throw new TypeError(`kinds.json: kind ${String(index)} has no gender`);
    const maxPageSize = member('maxPageSize');
    if (typeof maxPageSize !== 'number' || !Number.isInteger(maxPageSize) || maxPageSize < 1) throw new TypeError(`kinds.json: kind ${String(index)} has no maxPageSize`);
    const [singular, plural, field, one, many, label, sample, slug] = TEXT_MEMBERS.map((name) => String(member(name)));
    return { singular, plural, field, one, many, gender, label, sample, slug, maxPageSize } as ConsoleKind;
  });
}
