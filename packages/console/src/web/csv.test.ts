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

describe('a cell a spreadsheet would run as a formula', () => {
  const attacks = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", '@SUM(1+1)', '-1', '\tdepois de um tab', '\rdepois de um retorno'];

  it('is written behind a single quote, and quoted, so no cell of an export starts a formula (OWASP CSV injection)', () => {
    expect(csvOf([['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", '@SUM(1+1)', '-1']])).toBe(
      `\uFEFF"'=HYPERLINK(""http://x"",""y"")";"'+cmd|' /C calc'!A0";"'@SUM(1+1)";"'-1"\r\n`,
    );
    expect(csvOf([['\tx', '\rx']])).toBe(`\uFEFF"'\tx";"'\rx"\r\n`);
    const cells = csvOf([attacks]).slice(1).split(';');
    expect(cells.every((cell) => cell.startsWith(`"'`))).toBe(true);
  });

  it('leaves alone a cell that only holds such a character later on, or is a number', () => {
    expect(csvOf([['12x36', 'a=b', 'Turno -1', '1', 'e-mail @rh']])).toBe('\uFEFF12x36;a=b;Turno -1;1;e-mail @rh\r\n');
  });

  it('reads back as the text that was written, also a text that began with a quote already', () => {
    // An export's rows all have as many cells, as a spreadsheet's do.
    const rows = [attacks, ["'=já com aspas", "''-duas", "'só aspas", "'", 'x', 'y']];
    expect(rowsOfCsv(csvOf(rows)).map((row) => row.cells)).toEqual(rows);
  });

  it('is read back from the file as Excel saves it again: the quote kept, the cell quoted only where it must be', () => {
    expect(rowsOfCsv(`'-1;"'=HYPERLINK(""http://x"",""y"")";'@SUM(1+1);"'+cmd|' /C calc'!A0"\r\n`)[0]?.cells).toEqual([
      '-1',
      '=HYPERLINK("http://x","y")',
      '@SUM(1+1)',
      "+cmd|' /C calc'!A0",
    ]);
  });

  it('keeps the quote of a cell that only starts with one: the operator typed it', () => {
    expect(rowsOfCsv("'Turno A';'12x36\n")[0]?.cells).toEqual(["'Turno A'", "'12x36"]);
  });
});

describe('rowsOfCsv', () => {
  it('takes , when no ; stands outside quotes, and any line ending', () => {
    expect(rowsOfCsv('a,b\r\n"c;d",e\nf,g\rh,i').map((row) => row.cells)).toEqual([['a', 'b'], ['c;d', 'e'], ['f', 'g'], ['h', 'i']]);
    expect(rowsOfCsv('a,b;c\n').map((row) => row.cells)).toEqual([['a,b', 'c']]);
  });
});

describe('the separator, judged from the file\'s shape', () => {
  const cells = (file: string) => rowsOfCsv(file).map((row) => row.cells);

  it('reads Excel\'s ; file (BOM, CRLF) whose values hold commas as ;', () => {
    const excel = '\uFEFFID;Título;Criado em\r\n1;Manutenção, elétrica;02/12/2026 03:19\r\n2;Vendas, sul, e norte;02/12/2026 03:20\r\n';
    expect(cells(excel)).toEqual([
      ['ID', 'Título', 'Criado em'],
      ['1', 'Manutenção, elétrica', '02/12/2026 03:19'],
      ['2', 'Vendas, sul, e norte', '02/12/2026 03:20'],
    ]);
  });

  it('reads a , file (LibreOffice\'s default) whose header is Valor,Código and a value holds an unquoted ;, as ,', () => {
    const libreOffice = 'Valor,Código\n12x36,A1\nTurno A; noturno,B2\n6x1,C3\n';
    expect(cells(libreOffice)).toEqual([['Valor', 'Código'], ['12x36', 'A1'], ['Turno A; noturno', 'B2'], ['6x1', 'C3']]);
  });

  it('reads a file of one column typed by hand whole, a ; or a , inside a value and all', () => {
    expect(cells('12x36\r\nTurno A; noturno\r\n6x1\r\n')).toEqual([['12x36'], ['Turno A; noturno'], ['6x1']]);
    expect(cells('Financeiro\nManutenção, elétrica\nVendas; sul, norte\n')).toEqual([['Financeiro'], ['Manutenção, elétrica'], ['Vendas; sul, norte']]);
  });

  it('counts a quoted cell\'s separators and line breaks as text, not as cells or rows', () => {
    const quoted = 'ID;Valor\r\n1;"duas\r\nlinhas; e mais"\r\n2;"a,b"\r\n3;"""aspas""; e ;"\r\n';
    expect(cells(quoted)).toEqual([['ID', 'Valor'], ['1', 'duas\r\nlinhas; e mais'], ['2', 'a,b'], ['3', '"aspas"; e ;']]);
    expect(cells('"Turno A; noturno"\n"x,y"\n')).toEqual([['Turno A; noturno'], ['x,y']]);
  });

  it('keeps trailing empty cells, as Excel writes a row with empty columns, and reads rows with fewer cells than the header', () => {
    expect(cells('ID;Valor;Obs\r\n1;12x36;\r\n2;6x1;nota\r\n')).toEqual([['ID', 'Valor', 'Obs'], ['1', '12x36', ''], ['2', '6x1', 'nota']]);
    expect(cells('ID;Valor;Obs\r\n1;Vendas, sul\r\n2;6x1\r\n')).toEqual([['ID', 'Valor', 'Obs'], ['1', 'Vendas, sul'], ['2', '6x1']]);
  });

  it('takes, of two separators that both cut every row, the one whose rows agree on their number of cells', () => {
    expect(cells('Valor;A,Código\r\nTurno;B;C,x\r\nD;E,y\r\n')).toEqual([['Valor;A', 'Código'], ['Turno;B;C', 'x'], ['D;E', 'y']]);
  });
});

describe('rowsOfCsv, quotes and lines', () => {
  it('reads a quote inside an unquoted cell as text, not as the start of a quoted cell that swallows the rows after it', () => {
    expect(rowsOfCsv('Turno 12" noturno\r\n6x1\r\n5x2\r\n').map((row) => row.cells)).toEqual([['Turno 12" noturno'], ['6x1'], ['5x2']]);
    expect(rowsOfCsv('a;Turno 12" noturno;b\nc;d;e\n').map((row) => row.cells)).toEqual([['a', 'Turno 12" noturno', 'b'], ['c', 'd', 'e']]);
    expect(rowsOfCsv('x;Tela 15"\ny;Tela 17"\n').map((row) => row.cells)).toEqual([['x', 'Tela 15"'], ['y', 'Tela 17"']]);
  });

  it('takes the separator from outside quoted cells only, with a stray quote before them', () => {
    expect(rowsOfCsv('Turno 12" noturno,x\r\n"Controladoria; fiscal",y\r\n').map((row) => row.cells)).toEqual([
      ['Turno 12" noturno', 'x'],
      ['Controladoria; fiscal', 'y'],
    ]);
    expect(rowsOfCsv('id,"diz ""a;b""",z\nid2,sem,w\n').map((row) => row.cells)).toEqual([['id', 'diz "a;b"', 'z'], ['id2', 'sem', 'w']]);
  });

  it('reads a file as Excel writes it: quoted cells with "" escapes, a quoted line break, CRLF or LF', () => {
    const excel = 'ID;Título\r\n1;"Centro ""A""; sede"\r\n2;"duas\r\nlinhas"\r\n3;"Tela 15"""\n4;""\n5;Fim';
    expect(rowsOfCsv(excel)).toEqual([
      { line: 1, cells: ['ID', 'Título'] },
      { line: 2, cells: ['1', 'Centro "A"; sede'] },
      { line: 3, cells: ['2', 'duas\r\nlinhas'] },
      { line: 5, cells: ['3', 'Tela 15"'] },
      { line: 6, cells: ['4', ''] },
      { line: 7, cells: ['5', 'Fim'] },
    ]);
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
