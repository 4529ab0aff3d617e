// CSV as spreadsheets write it: RFC 4180 quoting, any line ending, `;` (Excel's separator
// where the decimal mark is a comma, as in Brazil), `,`, or one column and no separator.

// A cell that starts with one of these a spreadsheet runs as a formula (OWASP, "CSV
// Injection"): `=HYPERLINK(...)` leaks data, `+cmd|...` runs a program. Written behind a
// single quote it is text. Quotes already in front count in, so that reading back takes
// off exactly the one that writing put on, and a text of `'=` survives the round trip.
const FORMULA_START = /^'*[=+\-@\t\r]/u;

const BOM = '\uFEFF';

/**
 * Rows as a CSV file for a spreadsheet: a UTF-8 BOM (so Excel reads the accents right), `;`
 * between cells, CRLF after each row, and no cell a spreadsheet would run as a formula.
 */
export function csvOf(rows: readonly (readonly string[])[], separator = ';'): string {
  return BOM + rows.map((row) => row.map((cell) => cellOf(cell, separator)).join(separator)).join('\r\n') + '\r\n';
}

function cellOf(text: string, separator: string): string {
  const formula = FORMULA_START.test(text);
  const cell = formula ? `'${text}` : text;
  return formula || cell.includes(separator) || /["\r\n]/u.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** A cell as it was before `csvOf` kept a spreadsheet from running it: without the one quote put in front. */
function textOfCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell) ? cell.slice(1) : cell;
}

/** One row of a CSV file, and the line of the file it starts on (1 for the first). */
export interface CsvRow {
  readonly line: number;
  readonly cells: readonly string[];
}

/**
 * The rows of a CSV file, cut at the separator it uses (`separatorOf`). Empty lines are
 * left out; a BOM is dropped; a cell that `csvOf` wrote behind a quote (`'=...`) is read as
 * the text it was.
 */
export function rowsOfCsv(file: string): CsvRow[] {
  const text = file.startsWith(BOM) ? file.slice(1) : file;
  return rowsCutAt(text, separatorOf(text)).map((row) => ({ line: row.line, cells: row.cells.map(textOfCell) }));
}

/**
 * The separator a file uses, judged from its shape: a spreadsheet cuts every row into as
 * many cells as it has columns. Of `;` (Excel's in Brazil) and `,`, those that cut every row
 * into more than one cell; of them the one whose rows agree best on their number of cells,
 * `;` on a tie. When neither cuts every row, the file is one column and each line is read
 * whole, so `Turno A; noturno` or `Manutenção, elétrica` in a list typed by hand stays whole.
 */
function separatorOf(text: string): Separator {
  const shapes = SEPARATORS.map((separator) => ({ separator, counts: rowsCutAt(text, separator).map((row) => row.cells.length) }));
  const [best] = shapes
    .filter(({ counts }) => counts.every((count) => count > 1))
    .toSorted((one, other) => new Set(one.counts).size - new Set(other.counts).size);
  return best?.separator ?? '';
}

/** A separator between cells; '' when the file is one column. */
type Separator = ';' | ',' | '';
const SEPARATORS = [';', ','] as const;

/** The rows of `text` cut at `separator`, without its empty lines. */
function rowsCutAt(text: string, separator: Separator): CsvRow[] {
  const rows: CsvRow[] = [];
  let row: CsvCell[] = [];
  for (const cell of cellsOf(text, separator)) {
    row.push(cell);
    if (cell.end !== ROW_END) continue;
    const [only] = row;
    if (row.length > 1 || only?.quoted === true || only?.text !== '') rows.push({ line: cell.line, cells: row.map((one) => one.text) });
    row = [];
  }
  return rows;
}

const ROW_END = '\n';

interface CsvCell {
  readonly text: string;
  /** Written in quotes: `""` is an empty value, where nothing at all is an empty line. */
  readonly quoted: boolean;
  /** What ended it: the separator, or ROW_END at a line's end or the file's. */
  readonly end: string;
  /** The line of the file its row starts on. */
  readonly line: number;
}

/**
 * The cells of a CSV text, cut at `separator` (none when '') and at line ends (CRLF, LF or CR).
 * A quote opens a quoted cell only as the cell's first character, as Excel reads it: in
 * `Turno 12" noturno` it is text, not the start of a cell that runs to the end of the file.
 */
function* cellsOf(text: string, separator: Separator): Generator<CsvCell> {
  let cell = '';
  let quoted = false;
  let quoting = false;
  let line = 1;
  let rowLine = 1;
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charAt(at);
    if (quoting) {
      if (char !== '"') {
        cell += char;
        if (char === '\n' || (char === '\r' && text.charAt(at + 1) !== '\n')) line += 1;
      } else if (text.charAt(at + 1) === '"') {
        cell += '"';
        at += 1;
      } else quoting = false;
    } else if (char === '"' && cell === '' && !quoted) {
      quoting = true;
      quoted = true;
    } else if ((separator !== '' && char === separator) || char === '\r' || char === '\n') {
      const endsRow = char === '\r' || char === '\n';
      if (char === '\r' && text.charAt(at + 1) === '\n') at += 1;
      yield { text: cell, quoted, end: endsRow ? ROW_END : char, line: rowLine };
      cell = '';
      quoted = false;
      if (endsRow) {
        line += 1;
        rowLine = line;
      }
    } else cell += char;
  }
  yield { text: cell, quoted, end: ROW_END, line: rowLine };
}
