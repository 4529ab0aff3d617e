import { rowsOfCsv } from './csv.js';
import { type ConsoleResource } from './resources.js';

// What an import reads from the file an operator chose: its text, in whichever encoding it
// was saved, and the values of its one column that holds them.

/** How the file's bytes were read: UTF-8 (with or without a BOM), or Excel's default on Windows in Brazil. */
export type Encoding = 'utf-8' | 'windows-1252';

/** One value to import, and the line of the file it came from, for the report. */
export interface ImportRow {
  readonly line: number;
  readonly text: string;
}

/** A file read for an import. */
export interface ImportFile {
  readonly encoding: Encoding;
  /** The first row's cell that named the column of values, when the first row was a header. */
  readonly header: string | undefined;
  readonly rows: readonly ImportRow[];
}

/**
 * The file's values to import, or undefined when its bytes are no text in either encoding
 * (a workbook, a UTF-16 file); a first row holding one of `headers` is the header.
 */
export function importFileOf(bytes: Uint8Array, headers: readonly string[]): ImportFile | undefined {
  const decoded = textOf(bytes);
  return decoded === undefined ? undefined : { encoding: decoded.encoding, ...valuesOf(decoded.text, headers) };
}

// A fatal decoder refuses bytes that are not UTF-8 instead of replacing them with U+FFFD;
// it drops a leading BOM. Windows-1252 gives a character to every byte, so plausibility is
// judged on the text: controls other than tab and line ends are no spreadsheet's.
const utf8 = new TextDecoder('utf-8', { fatal: true });
const windows1252 = new TextDecoder('windows-1252');
const NOT_TEXT = /(?![\t\r\n])\p{Cc}/u;

function textOf(bytes: Uint8Array): { readonly text: string; readonly encoding: Encoding } | undefined {
  const decoded = utf8Text(bytes);
  const text = decoded ?? windows1252.decode(bytes);
  if (NOT_TEXT.test(text)) return undefined;
  return { text, encoding: decoded === undefined ? 'windows-1252' : 'utf-8' };
}

function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch (error) {
    // The one failure a fatal decoder has: bytes that are not UTF-8, then read as Windows-1252.
    if (error instanceof TypeError) return undefined;
    throw error;
  }
}

/** The headers a first row may name the column of values by: as an export of any of `resources` heads it, or by the API's field name. */
export function valueHeadersOf(resources: readonly ConsoleResource[]): readonly string[] {
  return resources.flatMap((resource) => [resource.words.column, resource.field]);
}

// A first row naming the column of values (any case, accents or not) is a header: that
// column is read, from the next row.
function valuesOf(text: string, headers: readonly string[]): Pick<ImportFile, 'header' | 'rows'> {
  const rows = rowsOfCsv(text);
  const first = rows[0]?.cells ?? [];
  const words = headers.map(headerWord);
  const column = first.findIndex((cell) => words.includes(headerWord(cell)));
  const values = rows.slice(column >= 0 ? 1 : 0).map(({ line, cells }) => ({ line, text: cells[Math.max(column, 0)] ?? '' }));
  return { header: first[column], rows: values };
}

function headerWord(cell: string): string {
  return cell.trim().normalize('NFD').replace(/\p{Mn}/gu, '').toLowerCase();
}
