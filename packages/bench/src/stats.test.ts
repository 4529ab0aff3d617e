import { describe, expect, it } from 'vitest';
import { Latencies, median, percentile } from './stats.js';

describe('percentile', () => {
  it('takes the nearest rank, so p99 of 1..100 is 99 and p50 is 50', () => {
    const values = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(values, 0.5), percentile(values, 0.99), percentile(values, 1)]).toEqual([50, 99, 100]);
  });

  it('is NaN for no values, which the report prints as n/a', () => {
    expect(percentile([], 0.5)).toBeNaN();
  });
});

describe('median', () => {
  it('takes the middle of an odd count and the mean of the middle two of an even one', () => {
    expect([median([3, 1, 2]), median([4, 1, 3, 2])]).toEqual([2, 2.5]);
  });
});

describe('Latencies', () => {
  it('keeps every value past its first capacity, and sorts them', () => {
    const latencies = new Latencies();
    for (let i = 70_000; i > 0; i -= 1) latencies.add(i / 10);
    const sorted = latencies.sorted();
    expect([latencies.count, sorted[0], sorted.at(-1)]).toEqual([70_000, 0.1, 7000]);
  });
});
