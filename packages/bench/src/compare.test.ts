import { describe, expect, it } from 'vitest';
import { turnOrder } from './compare.js';

describe('turnOrder', () => {
  it('starts each round one contender further along, so none always follows the same one', () => {
    const rounds = [1, 2, 3, 4].map((round) => turnOrder(['a', 'b', 'app', 'runtime'], round).join(' '));
    expect(rounds).toEqual(['a b app runtime', 'b app runtime a', 'app runtime a b', 'runtime a b app']);
    expect(turnOrder(['a', 'b'], 3)).toEqual(['a', 'b']);
    expect(turnOrder([], 2)).toEqual([]);
  });
});
