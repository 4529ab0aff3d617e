import { describe, expect, it } from 'vitest';
import { codePointKey } from './code-point-key.js';
import { KeptOrder } from './kept-order.js';
import { type OrderView } from './order-view.js';

interface Item {
  readonly id: string;
  readonly value: number;
  readonly label?: string;
}

/** Numbers from a fixed seed, so a failure shows again on the next run. */
function seeded(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % below;
  };
}

const byValueThenId = (a: Item, b: Item): number => a.value - b.value || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const idOf = (n: number): string => `id-${String(n).padStart(6, '0')}`;
const everyEntry = (view: OrderView<Item>): Item[] => Array.from({ length: view.size }, (_, index) => view.at(index));

describe('KeptOrder', () => {
  it('keeps entries by value, then id, through inserts, removals and replacements, over many chunks', () => {
    const random = seeded(7);
    const order = new KeptOrder<Item>((item) => item.value);
    let model: Item[] = [];
    for (let step = 0; step < 12_000; step += 1) {
      const roll = random(10);
      const victim = model[random(Math.max(model.length, 1))];
      if (roll < 6 || victim === undefined) {
        // Few values, so ties are many and broken by id.
        const item = { id: idOf(step), value: random(50) };
        order.insert(item);
        model.push(item);
      } else if (roll < 9) {
        expect(order.remove(victim)).toBe(true);
        model = model.filter((item) => item !== victim);
      } else {
        const relabelled = { ...victim, label: `step ${String(step)}` };
        expect(order.replace(relabelled)).toBe(true);
        model = model.map((item) => (item === victim ? relabelled : item));
      }
    }
    model.sort(byValueThenId);
    expect(model.length).toBeGreaterThan(2000);
    expect(order.size).toBe(model.length);
    expect(order.slice(0, order.size)).toEqual(model);
    expect(everyEntry(order.view())).toEqual(model);
    expect(order.slice(1000, 2100)).toEqual(model.slice(1000, 2100));
    expect(order.slice(model.length - 5, model.length + 5)).toEqual(model.slice(-5));
  });

  it('removes or replaces nothing where no entry has that value and id', () => {
    const order = new KeptOrder<Item>((item) => item.value);
    order.insert({ id: 'a', value: 1 });
    expect(order.remove({ id: 'a', value: 2 })).toBe(false);
    expect(order.replace({ id: 'b', value: 1 })).toBe(false);
    expect(order.remove({ id: 'z', value: 9 })).toBe(false);
    expect(order.slice(0, 10)).toEqual([{ id: 'a', value: 1 }]);
  });

  it('keeps a snapshot as it was, whatever is written after it', () => {
    const order = new KeptOrder<Item>((item) => item.value);
    const items = Array.from({ length: 3000 }, (_, n) => ({ id: idOf(n), value: n % 97 }));
    for (const item of items) order.insert(item);
    const snapshot = order.snapshot();
    const before = everyEntry(snapshot);
    for (const item of items.slice(0, 1500)) order.remove(item);
    for (const item of items.slice(1500, 1600)) order.replace({ ...item, label: 'changed' });
    for (let n = 0; n < 2000; n += 1) order.insert({ id: idOf(10_000 + n), value: n % 13 });
    expect(everyEntry(snapshot)).toEqual(before);
    expect(order.size).toBe(3500);
    const after = everyEntry(order.snapshot());
    expect(after).toHaveLength(3500);
    expect(after.filter((item) => item.label === 'changed')).toHaveLength(100);
  });

  it('counts the entries of a first part of the order', () => {
    const order = new KeptOrder<Item>((item) => item.value);
    for (let n = 0; n < 5000; n += 1) order.insert({ id: idOf(n), value: n % 100 });
    const view = order.view();
    expect(view.countWhile((item) => item.value < 0)).toBe(0);
    expect(view.countWhile((item) => item.value < 37)).toBe(37 * 50);
    expect(view.countWhile((item) => item.value <= 37)).toBe(38 * 50);
    expect(view.countWhile(() => true)).toBe(5000);
    expect(new KeptOrder<Item>((item) => item.value).view().countWhile(() => true)).toBe(0);
  });

  it('orders texts by code point through their keys', () => {
    const order = new KeptOrder<{ id: string; text: string }>((item) => codePointKey(item.text));
    for (const text of ['😀', '\uFF5A', 'z', 'alvaro']) order.insert({ id: text, text });
    expect(order.slice(0, 4).map((item) => item.text)).toEqual(['alvaro', 'z', '\uFF5A', '😀']);
  });
});
