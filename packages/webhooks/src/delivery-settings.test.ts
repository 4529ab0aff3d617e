import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMINGS, leaseTimings } from './delivery-settings.js';

describe('the timings of a lease', () => {
  it('keep the contract attempt time of 10 s for a lease of 30 s or longer', () => {
    expect(leaseTimings(DEFAULT_TIMINGS.leaseMs)).toEqual({ leaseMs: 30_000, attemptTimeoutMs: 10_000 });
    expect(leaseTimings(120_000)).toEqual({ leaseMs: 120_000, attemptTimeoutMs: 10_000 });
  });

  it('shorten the attempt to a third of a shorter lease, so that an attempt ends within it', () => {
    expect(leaseTimings(6000)).toEqual({ leaseMs: 6000, attemptTimeoutMs: 2000 });
    expect(leaseTimings(3000)).toEqual({ leaseMs: 3000, attemptTimeoutMs: 1000 });
  });
});
