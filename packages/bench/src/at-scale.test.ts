import { foldText } from '@workplan/core';
import { describe, expect, it } from 'vitest';
import { SEARCHES, textOf } from './at-scale.js';

describe('the scale scenario\'s data', () => {
  const texts = Array.from({ length: 100_000 }, (_, i) => textOf(i + 1));
  const matching = (q: string): number => texts.filter((text) => foldText(text).includes(foldText(q))).length;

  it('gives every record a text of its own', () => {
    expect(new Set(texts.map((text) => foldText(text))).size).toBe(texts.length);
  });

  it('has a rare search that scans everything for a handful of records, and a common one that fills pages', () => {
    const rare = matching(SEARCHES.rare);
    expect(rare).toBeGreaterThan(0);
    expect(rare).toBeLessThan(100);
    expect(matching(SEARCHES.common)).toBeGreaterThan(10_000);
  });

  it('orders texts differently from their creation, so a text sort is not the creation order', () => {
    const folded = texts.slice(0, 1000).map((text) => foldText(text));
    expect([...folded].sort()).not.toEqual(folded);
  });
});
