import { describe, expect, it } from 'vitest';
import { SearchTotals } from './search-totals.js';

describe('SearchTotals', () => {
  it('keeps a total until the next write', () => {
    const totals = new SearchTotals();
    totals.keep('area', 12, totals.version);
    expect(totals.totalOf('area')).toBe(12);
    totals.forget();
    expect(totals.totalOf('area')).toBeUndefined();
  });

  it('does not keep a total counted from records a write has changed since', () => {
    const totals = new SearchTotals();
    const counted = totals.version;
    totals.forget();
    totals.keep('area', 12, counted);
    expect(totals.totalOf('area')).toBeUndefined();
  });

  it('keeps the latest totals only, up to a bound', () => {
    const totals = new SearchTotals();
    for (let n = 0; n < 100; n += 1) totals.keep(`busca ${String(n)}`, n, totals.version);
    expect(totals.totalOf('busca 0')).toBeUndefined();
    expect(totals.totalOf('busca 99')).toBe(99);
  });
});
