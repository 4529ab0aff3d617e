import { describe, expect, it } from 'vitest';
import { LocalHitCounter } from './hit-store.js';

describe('LocalHitCounter', () => {
  it('counts each key apart within a window, and from one again in the next window', async () => {
    const counter = new LocalHitCounter();
    const minute = 60_000;
    expect([await counter.hit('a', 0, minute), await counter.hit('a', 0, minute), await counter.hit('b', 0, minute)]).toEqual([1, 2, 1]);
    expect([await counter.hit('a', minute, minute), await counter.hit('a', minute, minute)]).toEqual([1, 2]);
    // A hit of a window already ended (a clock set back) is counted in a window of its own.
    expect(await counter.hit('a', 0, minute)).toBe(1);
  });
});
