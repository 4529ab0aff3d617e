import { describe, expect, it } from 'vitest';
import { csvOf } from './csv.js';
import { costCenters, scales } from '../test-support/seed-kinds.js';
import { importFileOf, valueHeadersOf, type ImportFile } from './import-file.js';
import { consoleResourcesOf } from './resources.js';

/** The headers the seed's resources name their column of values by. */
const HEADERS = valueHeadersOf(consoleResourcesOf([scales, costCenters]));

const utf8 = (text: string) => new TextEncoder().encode(text);
/** The bytes Excel writes on a Brazilian Windows ("CSV (separado por vírgulas)"): one byte a character, Windows-1252. */
const windows1252 = (text: string) =>
  Uint8Array.from(text, (char) => {
    const byte = WINDOWS_1252_ABOVE_ASCII.get(char) ?? char.charCodeAt(0);
    if (byte > 0xff || (char.charCodeAt(0) >= 0x80 && char.charCodeAt(0) < 0xa0)) throw new Error(`${char} is not in Windows-1252`);
    return byte;
  });
// The characters where Windows-1252 differs from Latin-1 (0x80 to 0x9F), those the tests use.
const WINDOWS_1252_ABOVE_ASCII = new Map([['€', 0x80], ['“', 0x93], ['”', 0x94], ['–', 0x96]]);

describe('importFileOf', () => {
  it('reads a file saved by Excel in Windows-1252, header and all, as the text that was typed', () => {
    const bytes = windows1252('ID;Título;Criado em\r\nx;Operações\r\ny;Manutenção “Elétrica” – 2º turno € \r\n');
    // The bytes are what Excel writes: ç is one byte, E7, not UTF-8's C3 A7.
    expect([...bytes.subarray(23, 34)]).toEqual([0x4f, 0x70, 0x65, 0x72, 0x61, 0xe7, 0xf5, 0x65, 0x73, 0x0d, 0x0a]);
    expect(importFileOf(bytes, HEADERS)).toEqual({
      encoding: 'windows-1252',
      header: 'Título',
      rows: [
        { line: 2, text: 'Operações' },
        { line: 3, text: 'Manutenção “Elétrica” – 2º turno € ' },
      ],
    });
  });

  it('reads UTF-8 with or without a BOM as UTF-8', () => {
    const expected = { encoding: 'utf-8', header: 'Valor', rows: [{ line: 2, text: 'Operações' }] };
    expect(importFileOf(utf8('Valor\nOperações\n'), HEADERS)).toEqual(expected);
    expect(importFileOf(utf8('\uFEFFValor\nOperações\n'), HEADERS)).toEqual(expected);
    expect(importFileOf(utf8(csvOf([['Valor'], ['Operações']])), HEADERS)).toEqual(expected);
    // Plain ASCII is valid UTF-8 too.
    expect(importFileOf(utf8('12x36'), HEADERS)?.encoding).toBe('utf-8');
  });

  it('refuses bytes that are text in neither encoding: a workbook, a UTF-16 file', () => {
    const xlsx = Uint8Array.of(0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0x00, 0x00, 0x21, 0x00);
    expect(importFileOf(xlsx, HEADERS)).toBeUndefined();
    const utf16 = Uint8Array.of(0xff, 0xfe, 0x56, 0x00, 0x61, 0x00, 0x6c, 0x00, 0x6f, 0x00, 0x72, 0x00);
    expect(importFileOf(utf16, HEADERS)).toBeUndefined();
  });

  it('reads one column of values, with no header', () => {
    expect(importFileOf(utf8('12x36\n6x1\r\n5x2'), HEADERS)).toEqual({
      encoding: 'utf-8',
      header: undefined,
      rows: [
        { line: 1, text: '12x36' },
        { line: 2, text: '6x1' },
        { line: 3, text: '5x2' },
      ],
    });
  });

  it('takes a first row naming the column, as the export heads it or by the field\'s name, in any case or accents, as a header', () => {
    const exported = csvOf([['ID', 'Título', 'Criado em'], ['x', 'Financeiro', 'd'], ['y', 'Controladoria; fiscal', 'd']]);
    expect(importFileOf(utf8(exported), HEADERS)?.rows).toEqual([
      { line: 2, text: 'Financeiro' },
      { line: 3, text: 'Controladoria; fiscal' },
    ]);
    for (const header of ['valor', 'VALOR', 'Value', 'value', 'titulo', 'TÍTULO', 'Title', ' title ']) {
      expect(importFileOf(utf8(`${header}\n12x36`), HEADERS)).toEqual({ encoding: 'utf-8', header, rows: [{ line: 2, text: '12x36' }] });
    }
    expect(importFileOf(utf8('TITULO,outra\nRH,z'), HEADERS)?.rows.map((row) => row.text)).toEqual(['RH']);
  });

  it('reads the first column when no header names the value', () => {
    expect(importFileOf(utf8('Compras;ignorado\nVendas;x'), HEADERS)?.rows.map((row) => row.text)).toEqual(['Compras', 'Vendas']);
  });
});

describe('importFileOf, on files as Excel and LibreOffice save them', () => {
  const texts = (file: ImportFile | undefined) => file?.rows.map((row) => row.text);

  it('takes a comma file\'s header Valor,Código as a header, though a value holds a ;', () => {
    const file = importFileOf(utf8('Valor,Código\r\n12x36,A1\r\nTurno A; noturno,B2\r\n'), HEADERS);
    expect(file?.header).toBe('Valor');
    expect(texts(file)).toEqual(['12x36', 'Turno A; noturno']);
  });

  it('imports each line of a one-column file whole, in UTF-8 or Windows-1252', () => {
    const lines = 'Turno A; noturno\r\nManutenção, elétrica\r\n12x36\r\n';
    expect(texts(importFileOf(utf8(lines), HEADERS))).toEqual(['Turno A; noturno', 'Manutenção, elétrica', '12x36']);
    expect(importFileOf(windows1252(lines), HEADERS)).toEqual({
      encoding: 'windows-1252',
      header: undefined,
      rows: [
        { line: 1, text: 'Turno A; noturno' },
        { line: 2, text: 'Manutenção, elétrica' },
        { line: 3, text: '12x36' },
      ],
    });
  });

  it('reads Excel\'s ; export in Windows-1252 with a quoted line break, numbering rows by their first line', () => {
    const file = importFileOf(windows1252('ID;Título;Criado em\r\n1;"Manutenção; elétrica";x\r\n2;"Turno\r\nnoturno, 2º";y\r\n3;Vendas, sul;z\r\n'), HEADERS);
    expect(file?.rows).toEqual([
      { line: 2, text: 'Manutenção; elétrica' },
      { line: 3, text: 'Turno\r\nnoturno, 2º' },
      { line: 5, text: 'Vendas, sul' },
    ]);
  });
});
