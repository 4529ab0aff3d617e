import { comparePositions, type ListPosition, type RecordOrder } from '@workplan/core';
import { describe, expect, it } from 'vitest';
import { KeptOrder } from './kept-order.js';
import { type OrderView } from './order-view.js';
import { OrderWalk, rankAfter } from './order-walk.js';

interface Item {
  readonly id: string;
  readonly value: number;
}

const idOf = (n: number): string => `id-${String(n).padStart(6, '0')}`;
const positionOf = (item: Item): ListPosition => ({ value: item.value, id: item.id });

function viewOf(items: readonly Item[]): OrderView<Item> {
  const order = new KeptOrder<Item>((item) => item.value);
  // Inserted out of order, as records are written.
  for (const item of [...items].reverse()) order.insert(item);
  return order.view();
}

function walkAll(walk: OrderWalk<Item>): Item[] {
  const walked: Item[] = [];
  for (let item = walk.next(); item !== undefined; item = walk.next()) walked.push(item);
  return walked;
}

/** What the walk must give: the core's order of positions, ties by id ascending in both directions. */
const sortedIn = (items: readonly Item[], order: RecordOrder): Item[] =>
  [...items].sort((a, b) => comparePositions(positionOf(a), positionOf(b), order));

// Groups (entries of one value) of every size a walk steps back through differently: around
// each power of two, one alone, and one larger than a chunk; ids scrambled within them.
const GROUP_SIZES = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 1500, 1, 1, 1];
const items = GROUP_SIZES.flatMap((size, group) => Array.from({ length: size }, () => group * 10)).map((value, n, all) => ({
  id: idOf((n * 7919) % all.length),
  value,
}));

describe.each([false, true])('OrderWalk, descending %s', (descending) => {
  const order: RecordOrder = { field: 'createdAt', descending };
  const expected = sortedIn(items, order);
  const view = viewOf(items);

  it('walks every entry in order, ties by id ascending', () => {
    expect(walkAll(new OrderWalk(view, descending, 0))).toEqual(expected);
  });

  it('starts at any rank', () => {
    for (const rank of [1, 17, 500, 1499, 1500, 1501, 2222, items.length - 1, items.length, items.length + 1000]) {
      expect(walkAll(new OrderWalk(view, descending, rank))).toEqual(expected.slice(rank));
    }
  });

  it('ranks the place after a position, whether an entry holds it or not', () => {
    for (const index of [0, 5, 500, 1499, 1500, 2200, items.length - 1]) {
      const item = expected[index] as Item;
      expect(rankAfter(view, descending, positionOf(item))).toBe(index + 1);
    }
    for (const position of [
      { value: 200, id: 'id-' },
      { value: 200, id: 'id-999999' },
      { value: 45, id: idOf(1) },
      { value: -1, id: idOf(1) },
      { value: 1e9, id: idOf(1) },
    ]) {
      const before = expected.filter((item) => comparePositions(positionOf(item), position, order) <= 0).length;
      expect(rankAfter(view, descending, position)).toBe(before);
    }
  });

  it('walks an empty order to nothing', () => {
    expect(walkAll(new OrderWalk(viewOf([]), descending, 0))).toEqual([]);
  });
});
