import { WorkplanError, type RecordOrder } from '@workplan/core';
import { describe, expect, it } from 'vitest';
import { literalPattern, pageFilter, sortOf } from './record-query.js';

describe('a query in MongoDB’s terms', () => {
  it('writes each ASCII punctuation mark as a literal, and a control character as its code point', () => {
    const punctuation = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
    const pattern = literalPattern(`a${punctuation}b`);
    // JavaScript reads a backslash before punctuation as that punctuation, as PCRE and Go do.
    expect(new RegExp(`^${pattern}$`).test(`a${punctuation}b`)).toBe(true);
    expect(new RegExp(pattern).test(`a${punctuation.replace('.', 'x')}b`)).toBe(false);
    expect(literalPattern('a\u0000b\u001f')).toBe('a\\x{0}b\\x{1f}');
    expect(literalPattern('manutenção 12x36')).toBe('manutenção 12x36');
  });

  it('sorts by the order’s field, then by _id ascending in both directions', () => {
    expect(sortOf({ field: 'text', descending: true })).toEqual({ folded: -1, _id: 1 });
    expect(sortOf({ field: 'createdAt', descending: false })).toEqual({ createdAt: 1, _id: 1 });
  });

  it('refuses a position whose value does not fit its order', () => {
    const id = '0190a000-0000-7000-8000-000000000001';
    const cases: [RecordOrder, number | string][] = [
      [{ field: 'text', descending: false }, 5],
      [{ field: 'updatedAt', descending: true }, 'manutencao'],
    ];
    for (const [order, value] of cases) {
      expect(() => pageFilter({ order, after: { value, id }, skip: 0, limit: 1, count: false })).toThrow(
        expect.objectContaining({ kind: 'invalidQuery' }) as WorkplanError,
      );
    }
  });
});
