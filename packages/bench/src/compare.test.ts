import { describe, expect, it } from 'vitest';
import { cpuUsPerRequest, summarize, turnOrder } from './compare.js';
import { type Sample } from './load.js';

describe('turnOrder', () => {
  it('starts each round one contender further along, so none always follows the same one', () => {
    const rounds = [1, 2, 3, 4].map((round) => turnOrder(['a', 'b', 'app', 'runtime'], round).join(' '));
    expect(rounds).toEqual(['a b app runtime', 'b app runtime a', 'app runtime a b', 'runtime a b app']);
    expect(turnOrder(['a', 'b'], 3)).toEqual(['a', 'b']);
    expect(turnOrder([], 2)).toEqual([]);
  });
});

describe('the server\'s CPU a request', () => {
  const sample = (requests: number, serverCpuMs: number | undefined): Sample => ({
    requests, seconds: 1, reqPerSec: requests, p50Ms: 1, p99Ms: 2, non2xx: 0, errors: 0, peakRssMb: 100, generatorCpuPct: 50, serverCpuMs,
  });

  it('is its CPU time over the requests answered, in µs, and the median of the rounds\'', () => {
    expect(cpuUsPerRequest(sample(20_000, 900))).toBe(45);
    expect(summarize([sample(20_000, 900), sample(10_000, 300), sample(10_000, 1000)]).cpuUsPerRequest).toBe(45);
  });

  it('is unknown where the CPU could not be read or nothing was answered', () => {
    expect([cpuUsPerRequest(sample(100, undefined)), cpuUsPerRequest(sample(0, 10))]).toEqual([undefined, undefined]);
    expect(summarize([sample(100, undefined)]).cpuUsPerRequest).toBeUndefined();
  });
});
