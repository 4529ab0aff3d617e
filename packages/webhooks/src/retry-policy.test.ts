import { type DeliveryFailure } from '@workplan/core';
import { describe, expect, it } from 'vitest';
import { nextFailure, retryDelayMs, type RetryPolicy } from './retry-policy.js';

const backoff = { firstMs: 1000, maxMs: 300_000 };
const policy: RetryPolicy = { backoff, retryPeriodMs: 24 * 60 * 60 * 1000 };
const at = (ms: number): Date => new Date(Date.UTC(2026, 10, 25) + ms);
const highest = (): number => 1 - Number.EPSILON;

describe('the backoff', () => {
  it('doubles its ceiling with each failed attempt, up to its cap', () => {
    expect([1, 2, 3, 4, 9, 10, 50, 5000].map((attempts) => retryDelayMs(attempts, backoff, highest))).toEqual([
      999, 1999, 3999, 7999, 255_999, 299_999, 299_999, 299_999,
    ]);
  });

  it('waits a random time from nothing to the ceiling (full jitter)', () => {
    expect(retryDelayMs(3, backoff, () => 0)).toBe(0);
    expect(retryDelayMs(3, backoff, () => 0.5)).toBe(2000);
  });
});

describe('a failed attempt', () => {
  it('starts a run of failures, retried after the backoff', () => {
    expect(nextFailure(null, 'HTTP 500', at(0), policy, highest)).toEqual({
      lastError: 'HTTP 500',
      failingSince: at(0),
      attempts: 1,
      nextAttempt: at(999),
      markedFailingAt: null,
    });
  });

  it('adds to the run, keeping when it began', () => {
    const first = nextFailure(null, 'HTTP 500', at(0), policy, highest);
    expect(nextFailure(first, 'timeout', at(1000), policy, highest)).toEqual({
      lastError: 'timeout',
      failingSince: at(0),
      attempts: 2,
      nextAttempt: at(1000 + 1999),
      markedFailingAt: null,
    });
  });

  it('gives the run up once it lasted the retry period, marking the subscription failing', () => {
    const running: DeliveryFailure = { lastError: 'HTTP 500', failingSince: at(0), attempts: 300, nextAttempt: at(1), markedFailingAt: null };
    expect(nextFailure(running, 'HTTP 502', at(policy.retryPeriodMs - 1), policy).markedFailingAt).toBeNull();
    expect(nextFailure(running, 'HTTP 502', at(policy.retryPeriodMs), policy)).toMatchObject({
      attempts: 301,
      nextAttempt: null,
      markedFailingAt: at(policy.retryPeriodMs),
    });
  });

  it('after a run given up (a resumed subscription) starts a new run', () => {
    const givenUp: DeliveryFailure = { lastError: 'HTTP 500', failingSince: at(0), attempts: 300, nextAttempt: null, markedFailingAt: at(5) };
    expect(nextFailure(givenUp, 'HTTP 503', at(10_000), policy, highest)).toEqual({
      lastError: 'HTTP 503',
      failingSince: at(10_000),
      attempts: 1,
      nextAttempt: at(10_999),
      markedFailingAt: null,
    });
  });
});
