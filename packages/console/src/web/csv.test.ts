import { describe, expect, it } from 'vitest';
import { csvOf, rowsOfCsv } from './csv.js';

describe('csvOf', () => {
  it('starts with a UTF-8 BOM, separates cells with ; and rows with CRLF, and quotes only where it must', () => {
    const file = csvOf([
      ['ID', 'Título'],
      ['1', 'São Paulo; Centro'],
      ['2', 'diz "olá"'],
      ['3', 'duas\nlinhas'],
      ['4', 'Manutenção, elétrica'],
    ]);
    expect(file).toBe('\uFEFFID;Título\r\n1;"São Paulo; Centro"\r\n2;"diz ""olá"""\r\n3;"duas\nlinhas"\r\n4;Manutenção, elétrica\r\n');
  });

  it('reads back exactly what it wrote', () => {
    const rows = [['ID', 'Valor'], ['a', 'x;y'], ['b', '"q"'], ['c', 'r\r\ns'], ['d', '']];
    expect(rowsOfCsv(csvOf(rows)).map((row) => row.cells)).toEqual(rows);
  });
});

describe('rowsOfCsv', () => {
  it('takes , when no ; stands outside quotes, and any line ending', () => {
    expect(rowsOfCsv('a,b\r\n"c;d",e\nf,g\rh,i').map((row) => row.cells)).toEqual([['a', 'b'], ['c;d', 'e'], ['f', 'g'], ['h', 'i']]);
    expect(rowsOfCsv('a,b;c\n').map((row) => row.cells)).toEqual([['a,b', 'c']]);
  });

  it('leaves out empty lines but keeps a quoted empty or blank value, and numbers rows by the line they start on', () => {
    const rows = rowsOfCsv('\uFEFFum\n\n"   "\n""\n"dois\nlinhas"\ntrês\n\n');
    expect(rows).toEqual([
      { line: 1, cells: ['um'] },
      { line: 3, cells: ['   '] },
      { line: 4, cells: [''] },
      { line: 5, cells: ['dois\nlinhas'] },
      { line: 7, cells: ['três'] },
    ]);
  });
});
