// CSV as spreadsheets write it: RFC 4180 quoting, any line ending, `;` (Excel's separator
// where the decimal mark is a comma, as in Brazil) or `,`.

const BOM = '\uFEFF';

/** Rows as a CSV file for a spreadsheet: a UTF-8 BOM (so Excel reads the accents right), `;` between cells, CRLF after each row. */
export function csvOf(rows: readonly (readonly string[])[], separator = ';'): string {
  return BOM + rows.map((row) => row.map((cell) => quoted(cell, separator)).join(separator)).join('\r\n') + '\r\n';
}

function quoted(cell: string, separator: string): string {
  return cell.includes(separator) || /["\r\n]/u.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** One row of a CSV file, and the line of the file it starts on (1 for the first). */
export interface CsvRow {
  readonly line: number;
  readonly cells: readonly string[];
}

/**
 * The rows of a CSV file, with the separator it uses: `;` when one stands outside quotes
 * anywhere in the file, else `,`. Empty lines are left out; a BOM is dropped.
 */
export function rowsOfCsv(file: string): CsvRow[] {
  const text = file.startsWith(BOM) ? file.slice(1) : file;
  const separator = separatorOf(text);
  const rows: CsvRow[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoting = false;
  let line = 1;
  let rowLine = 1;
  let empty = true;
  const endRow = () => {
    if (!empty) rows.push({ line: rowLine, cells: [...cells, cell] });
    cells = [];
    cell = '';
    empty = true;
  };
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charAt(at);
    if (quoting) {
      if (char === '"' && text.charAt(at + 1) === '"') {
        cell += '"';
        at += 1;
      } else if (char === '"') quoting = false;
      else {
        if (char === '\n' || (char === '\r' && text.charAt(at + 1) !== '\n')) line += 1;
        cell += char;
      }
    } else if (char === '\r' || char === '\n') {
      if (char === '\r' && text.charAt(at + 1) === '\n') at += 1;
      endRow();
      line += 1;
      rowLine = line;
    } else {
      empty = false;
      if (char === '"') quoting = true;
      else if (char === separator) {
        cells.push(cell);
        cell = '';
      } else cell += char;
    }
  }
  endRow();
  return rows;
}

function separatorOf(text: string): ';' | ',' {
  let quoting = false;
  for (const char of text) {
    if (char === '"') quoting = !quoting;
    else if (char === ';' && !quoting) return ';';
  }
  return ',';
}
