import { describe, expect, it } from 'vitest';
import { retryWhileBusy } from './busy-retry.js';

function sqliteFailure(errcode: number): Error {
  return Object.assign(new Error('database is locked'), { errcode });
}

/** An attempt that fails with each of `failures` in turn, then answers `done`. */
function failingThen(failures: readonly Error[]) {
  let calls = 0;
  const attempt = () => {
    const failure = failures[calls];
    calls += 1;
    if (failure !== undefined) throw failure;
    return 'done';
  };
  return { attempt, calls: () => calls };
}

describe('retryWhileBusy', () => {
  it('tries again after SQLITE_BUSY and its extended codes until the attempt succeeds', () => {
    const { attempt, calls } = failingThen([sqliteFailure(5), sqliteFailure(517), sqliteFailure(5)]);
    expect(retryWhileBusy(attempt, 2000)).toBe('done');
    expect(calls()).toBe(4);
  });

  it('throws any other failure at once', () => {
    const other = sqliteFailure(26);
    const { attempt, calls } = failingThen([other]);
    expect(() => retryWhileBusy(attempt, 2000)).toThrow(other);
    expect(calls()).toBe(1);
  });

  it('throws the last busy failure once the timeout has passed', () => {
    let clock = 0;
    const failures = Array.from({ length: 10 }, () => sqliteFailure(5));
    const { attempt, calls } = failingThen(failures);
    const ticking = () => {
      clock += 100;
      return clock;
    };
    expect(() => retryWhileBusy(attempt, 250, ticking)).toThrow(failures[2]);
    expect(calls()).toBe(3);
  });
});
