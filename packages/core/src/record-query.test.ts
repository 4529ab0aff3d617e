import { describe, expect, it } from 'vitest';
import { WorkplanError } from './errors.js';
import { costCenter, workSchedule } from './kind-description.js';
import {
  comparePositions,
  compareText,
  CREATION_ORDER,
  cursorOf,
  foldText,
  orderOf,
  positionOf,
  readCursor,
  searchOf,
  type RecordOrder,
} from './record-query.js';

const invalidQuery = (error: unknown): boolean => WorkplanError.is(error) && error.kind === 'invalidQuery';

const TEXT_ORDER: RecordOrder = { field: 'text', descending: false };

describe('foldText', () => {
  it.each([
    ['Manutenção Elétrica', 'manutencao eletrica'],
    ['FINANCEIRO', 'financeiro'],
    ['  Recepção \t  noturna\u00A0 ', 'recepcao noturna'],
    ['Álvaro', 'alvaro'],
    ['A\u0301lvaro', 'alvaro'],
    ['Ação Social', 'acao social'],
    ['İstanbul', 'istanbul'],
    ['Ωμέγα', 'ωμεγα'],
    ['12x36', '12x36'],
    ['Straße', 'strasse'],
    ['STRASSE', 'strasse'],
    ['STRAẞE', 'strasse'],
    ['ΟΔΟΣ', 'οδοσ'],
    ['οδος', 'οδοσ'],
    ['\uFB01nance', 'finance'],
    ['Nº 5', 'no 5'],
    ['1ª turma', '1a turma'],
    ['\uFF5A', 'z'],
    ['ΐ', 'ι'],
  ])('folds %j to %j', (text, folded) => {
    expect(foldText(text)).toBe(folded);
  });

  it('lets manutencao find Manutenção Elétrica', () => {
    expect(foldText('Manutenção Elétrica').includes(foldText('manutencao'))).toBe(true);
  });

  it('folds a folded text to itself, so a search folded again still finds it', () => {
    for (const text of ['Manutenção Elétrica', 'ǅemal', 'İ', 'ﬃ', '한국어', 'Ελληνικά', 'x\u0301\u0327y', '😀 Ação']) {
      expect(foldText(foldText(text))).toBe(foldText(text));
    }
  });

  it('puts Álvaro beside alvaro and before Zeladoria, where raw code points put it after', () => {
    const sorted = ['Zeladoria', 'banco', 'Álvaro', 'alvaro', 'Élida'].sort((a, b) => compareText(foldText(a), foldText(b)));
    expect(sorted.slice(0, 2).sort()).toEqual(['alvaro', 'Álvaro']);
    expect(sorted.slice(2)).toEqual(['banco', 'Élida', 'Zeladoria']);
  });
});

describe('compareText', () => {
  it('orders by code point, as SQLite and MongoDB compare UTF-8, not by UTF-16 code unit', () => {
    // U+FF5A sits below U+1F600 as a code point, above its surrogates as a code unit.
    expect(compareText('\uFF5A', '😀')).toBeLessThan(0);
    expect(compareText('😀', '\uFF5A')).toBeGreaterThan(0);
    expect(compareText('\uE000', '\u{10000}')).toBeLessThan(0);
    expect(compareText('😀', '😁')).toBeLessThan(0);
  });

  it('orders a prefix first and equal texts as equal', () => {
    expect(compareText('area', 'area 1')).toBeLessThan(0);
    expect(compareText('area 1', 'area')).toBeGreaterThan(0);
    expect(compareText('', 'a')).toBeLessThan(0);
    expect(compareText('ação', 'ação')).toBe(0);
    expect(compareText('a b', 'ab')).toBeLessThan(0);
  });
});

describe('comparePositions', () => {
  const first = { value: 'alvaro', id: '0190a000-0000-7000-8000-000000000002' };
  const second = { value: 'alvaro', id: '0190a000-0000-7000-8000-000000000003' };
  const later = { value: 'banco', id: '0190a000-0000-7000-8000-000000000001' };

  it('orders by value, then by id ascending', () => {
    expect(comparePositions(first, later, TEXT_ORDER)).toBeLessThan(0);
    expect(comparePositions(first, second, TEXT_ORDER)).toBeLessThan(0);
    expect(comparePositions(second, second, TEXT_ORDER)).toBe(0);
  });

  it('breaks ties by id ascending also where the order descends', () => {
    const descending = { field: 'text', descending: true } as const;
    expect(comparePositions(later, first, descending)).toBeLessThan(0);
    expect(comparePositions(first, second, descending)).toBeLessThan(0);
    const byDate = { field: 'createdAt', descending: true } as const;
    expect(comparePositions({ value: 5, id: 'b' }, { value: 5, id: 'a' }, byDate)).toBeGreaterThan(0);
    expect(comparePositions({ value: 6, id: 'b' }, { value: 5, id: 'a' }, byDate)).toBeLessThan(0);
  });

  it('orders texts by code point', () => {
    const fullWidth = { value: '\uFF5A', id: 'a' };
    const emoji = { value: '😀', id: 'a' };
    expect(comparePositions(fullWidth, emoji, TEXT_ORDER)).toBeLessThan(0);
  });
});

describe('orderOf', () => {
  it.each([
    ['createdAt', 'createdAt', false],
    ['-createdAt', 'createdAt', true],
    ['updatedAt', 'updatedAt', false],
    ['-updatedAt', 'updatedAt', true],
    ['value', 'text', false],
    ['-value', 'text', true],
  ] as const)('reads %j', (sort, field, descending) => {
    expect(orderOf(sort, 'value')).toEqual({ field, descending });
  });

  it('reads the text field of the kind it is given', () => {
    expect(orderOf('-title', 'title')).toEqual({ field: 'text', descending: true });
    expect(() => orderOf('value', 'title')).toThrow(WorkplanError);
  });

  it.each(['', '-', '--createdAt', '+createdAt', 'CreatedAt', 'createdat', ' createdAt', 'createdAt ', 'title', 'text', '-text', 'id', '__proto__', 'createdAt,value'])(
    'refuses %j as an invalid query',
    (sort) => {
      let thrown: unknown;
      try {
        orderOf(sort, 'value');
      } catch (error) {
        thrown = error;
      }
      expect(invalidQuery(thrown)).toBe(true);
    },
  );
});

describe('searchOf', () => {
  it('is no filter for an empty or blank q, or one that folds to nothing', () => {
    expect(searchOf('')).toBeUndefined();
    expect(searchOf(' \t\u00A0\uFEFF')).toBeUndefined();
    expect(searchOf('\u0301')).toBeUndefined();
  });

  it('folds the search as the stored text is folded', () => {
    expect(searchOf('  MANUTENÇÃO   elétrica ')).toBe('manutencao eletrica');
  });

  it('takes up to 200 code points after trimming, counting an emoji as one', () => {
    expect(searchOf(`  ${'a'.repeat(200)}  `)).toBe('a'.repeat(200));
    expect(searchOf('😀'.repeat(200))).toBe('😀'.repeat(200));
    expect(() => searchOf('a'.repeat(201))).toThrow(expect.objectContaining({ kind: 'invalidQuery' }));
    expect(() => searchOf('😀'.repeat(201))).toThrow(expect.objectContaining({ kind: 'invalidQuery' }));
  });

  it('counts the code points once in NFC, as a record text is counted', () => {
    expect(searchOf('e\u0301'.repeat(200))).toBe('e'.repeat(200));
    expect(() => searchOf('e\u0301'.repeat(201))).toThrow(expect.objectContaining({ kind: 'invalidQuery' }));
  });

  it.each(['\uD800', 'a\uDC00b', 'fim\uD83D'])('refuses malformed Unicode %j', (q) => {
    expect(() => searchOf(q)).toThrow(expect.objectContaining({ kind: 'invalidQuery' }));
  });
});

describe('cursors', () => {
  const id = '0190a000-0000-7000-8000-000000000007';
  const byText: RecordOrder = { field: 'text', descending: true };
  const record = { id, value: 'Manutenção', createdAt: new Date(1_700_000_000_000), updatedAt: new Date(1_700_000_000_500) };

  it('reads back, through JSON, the position it was made from', () => {
    for (const order of [CREATION_ORDER, byText, { field: 'updatedAt', descending: true } as const]) {
      const position = positionOf(record, 'value', order);
      const cursor: unknown = JSON.parse(JSON.stringify(cursorOf(workSchedule, order, 'manut', position)));
      expect(readCursor(cursor, workSchedule, order, 'manut')).toEqual(position);
    }
    expect(positionOf(record, 'value', byText)).toEqual({ value: 'manutencao', id });
    expect(positionOf(record, 'value', { field: 'updatedAt', descending: false })).toEqual({ value: 1_700_000_000_500, id });
  });

  it.each([
    ['another kind', costCenter, byText, 'manut'],
    ['another field', workSchedule, CREATION_ORDER, 'manut'],
    ['another direction', workSchedule, { field: 'text', descending: false }, 'manut'],
    ['another search', workSchedule, byText, 'outra'],
    ['no search', workSchedule, byText, undefined],
  ] as const)('refuses a cursor of %s', (_what, kind, order, search) => {
    const cursor = cursorOf(workSchedule, byText, 'manut', { value: 'manutencao', id });
    expect(() => readCursor(cursor, kind, order, search)).toThrow(expect.objectContaining({ kind: 'invalidQuery' }));
  });

  it('refuses a cursor made without a search for a list with one', () => {
    const cursor = cursorOf(workSchedule, byText, undefined, { value: 'manutencao', id });
    expect(() => readCursor(cursor, workSchedule, byText, 'manut')).toThrow(expect.objectContaining({ kind: 'invalidQuery' }));
  });

  it.each([
    ['not a tuple', 'workSchedule'],
    ['null', null],
    ['an object', { kind: 'workSchedule' }],
    ['too short', ['workSchedule', 'createdAt', false, null, 1]],
    ['too long', ['workSchedule', 'createdAt', false, null, 1, id, 'x']],
    ['a text position for a date', ['workSchedule', 'createdAt', false, null, 'manutencao', id]],
    ['a fraction for a date', ['workSchedule', 'createdAt', false, null, 1.5, id]],
    ['an unsafe integer', ['workSchedule', 'createdAt', false, null, 2 ** 53, id]],
    ['a date position for a text', ['workSchedule', 'text', false, null, 5, id]],
    ['a direction that is not a boolean', ['workSchedule', 'createdAt', 'false', null, 1, id]],
    ['an id that is not a string', ['workSchedule', 'createdAt', false, null, 1, 7]],
    ['an empty id', ['workSchedule', 'createdAt', false, null, 1, '']],
    ['a long id', ['workSchedule', 'createdAt', false, null, 1, 'x'.repeat(65)]],
    ['a malformed id', ['workSchedule', 'createdAt', false, null, 1, '\uD800']],
    ['a malformed text position', ['workSchedule', 'text', false, null, 'a\uDC00', id]],
  ])('refuses a cursor that is %s', (_what, cursor) => {
    const order = cursor instanceof Array && cursor[1] === 'text' ? TEXT_ORDER : CREATION_ORDER;
    expect(() => readCursor(cursor, workSchedule, order, undefined)).toThrow(expect.objectContaining({ kind: 'invalidQuery' }));
  });
});
