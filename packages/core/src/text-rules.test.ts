import { describe, expect, it } from 'vitest';
import { checkText, uniquenessKey } from './text-rules.js';

describe('checkText', () => {
  it.each([
    [undefined, 'required'],
    [12, 'notString'],
    [null, 'notString'],
    [{ $gt: '' }, 'notString'],
    ['\uD800 lone surrogate', 'malformedUnicode'],
    ['', 'empty'],
    [' \t\n\u00A0\uFEFF', 'empty'],
    ['x'.repeat(201), 'tooLong'],
    ['a\u0000b', 'controlCharacter'],
    ['a\u007Fb', 'controlCharacter'],
    ['linha\nquebrada', 'controlCharacter'],
  ])('refuses %j for breaking the %s rule', (raw, rule) => {
    expect(checkText(raw)).toEqual({ ok: false, rule });
  });

  it('normalises to NFC, then trims white space, NBSP and BOM', () => {
    expect(checkText('\uFEFF\u00A0 Sa\u0303o Paulo\t\n')).toEqual({ ok: true, text: 'São Paulo' });
  });

  it('counts code points, not UTF-16 units, against the 200 limit', () => {
    const emoji200 = '😀'.repeat(200);
    expect(checkText(emoji200)).toEqual({ ok: true, text: emoji200 });
    expect(checkText(`${emoji200}😀`)).toEqual({ ok: false, rule: 'tooLong' });
  });

  it('checks length after trimming', () => {
    expect(checkText(`  ${'x'.repeat(200)}  `)).toEqual({ ok: true, text: 'x'.repeat(200) });
  });
});

describe('uniquenessKey', () => {
  it('folds case and runs of white space', () => {
    expect(uniquenessKey('Centro   de\tCusto')).toBe('centro de custo');
    expect(uniquenessKey('FINANCEIRO')).toBe(uniquenessKey('Financeiro'));
  });

  it('keeps accents apart', () => {
    expect(uniquenessKey('São')).not.toBe(uniquenessKey('Sao'));
  });
});
