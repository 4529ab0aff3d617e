import { describe, expect, it } from 'vitest';
import { KeptOrder } from './kept-order.js';
import { OrderWalk } from './order-walk.js';
import { SearchScan } from './search-scan.js';

interface Item {
  readonly id: string;
  readonly value: number;
}

const items: Item[] = Array.from({ length: 1000 }, (_, n) => ({ id: `id-${String(n).padStart(4, '0')}`, value: n }));
const view = (() => {
  const order = new KeptOrder<Item>((item) => item.value);
  for (const item of items) order.insert(item);
  return order.view();
})();

/** Runs a search to its end, counting how often an entry was looked at. */
function search(wanted: (item: Item) => boolean, options: { rank?: number; skip?: number; limit?: number; descending?: boolean } = {}) {
  let looks = 0;
  const matches = (item: Item): boolean => {
    looks += 1;
    return wanted(item);
  };
  const walk = new OrderWalk(view, options.descending ?? false, options.rank ?? 0);
  const scan = new SearchScan({ walk, everyEntry: view, matches, skip: options.skip ?? 0, limit: options.limit ?? 10, count: true, fromStart: (options.rank ?? 0) === 0 });
  while (!scan.advance(() => false));
  return { ...scan.result(), looks };
}

describe('SearchScan', () => {
  it('counts what a page found once its walk from the start went through every entry, looking at none twice', () => {
    const few = search((item) => item.value % 250 === 7, { skip: 1 });
    expect(few.entries.map((item) => item.value)).toEqual([257, 507, 757]);
    expect(few.total).toBe(4);
    expect(few.looks).toBe(items.length);
    const none = search(() => false, { descending: true });
    expect(none).toEqual({ entries: [], total: 0, looks: items.length });
  });

  it('counts every entry again when the page filled before the walk ended, or the walk began past the start', () => {
    const many = search((item) => item.value % 2 === 0);
    expect(many.entries).toHaveLength(10);
    expect(many.total).toBe(500);
    const after = search((item) => item.value % 250 === 7, { rank: 300 });
    expect(after.entries.map((item) => item.value)).toEqual([507, 757]);
    expect(after.total).toBe(4);
  });
});
