import { compareText } from '@workplan/core';
import { describe, expect, it } from 'vitest';
import { codePointKey } from './code-point-key.js';

const nativeOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

describe('codePointKey', () => {
  it('is the text itself where no unit is from U+D800 up', () => {
    const text = 'manutencao eletrica 12';
    expect(codePointKey(text)).toBe(text);
  });

  it('orders keys, compared as JavaScript compares strings, as their texts by code point', () => {
    const texts = ['', 'a', 'z', 'zz', '\uD7FF', '\uE000', '\uFF5A', '\uFFFF', '😀', '😁', '\u{10000}', '\u{10FFFF}', 'a😀', 'a\uFF5A', 'a\uFF5Ab', 'ação'];
    for (const a of texts) {
      for (const b of texts) {
        expect(Math.sign(nativeOrder(codePointKey(a), codePointKey(b)))).toBe(Math.sign(compareText(a, b)));
      }
    }
  });
});
