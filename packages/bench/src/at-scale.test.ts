import { foldText } from '@workplan/core';
import { describe, expect, it } from 'vitest';
import { ofTurns, SEARCHES, sidesOfTurn, textOf } from './at-scale.js';
import type { Sample } from './load.js';

describe('the scale scenario\'s data', { timeout: 60_000 }, () => {
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

describe('runs taken in turns', () => {
  const run = (p50Ms: number, p99Ms: number, requests: number): Sample => ({
    requests,
    seconds: requests / 1000,
    reqPerSec: 1000,
    p50Ms,
    p99Ms,
    non2xx: 1,
    errors: 0,
    peakRssMb: requests,
    generatorCpuPct: p50Ms,
    serverCpuMs: requests / 10,
  });

  it('are one sample: the medians of their latencies, the sums of their counts', () => {
    const sample = ofTurns([run(0.3, 1, 50), run(0.1, 3, 50), run(0.2, 2, 100)]);
    expect(sample).toEqual({ requests: 200, seconds: 0.2, reqPerSec: 1000, p50Ms: 0.2, p99Ms: 2, non2xx: 3, errors: 0, peakRssMb: 100, generatorCpuPct: 0.3, serverCpuMs: 20 });
  });
});

describe('the sides of a turn', () => {
  it('go first in turns: over an even number of turns each side is sent first as often as the other', () => {
    const orders = [0, 1, 2, 3].map((turn) => sidesOfTurn(turn, 'without', 'with'));
    expect(orders).toEqual([['without', 'with'], ['with', 'without'], ['without', 'with'], ['with', 'without']]);
  });
});
