import { type ListPosition } from '@workplan/core';
import { compareIds, compareValues } from './kept-order.js';
import { type Ordered, type OrderView } from './order-view.js';

/**
 * How many entries come before the first one after `position`, in the view's order or, when
 * `descending`, in the order of values descending with ties still by id ascending. A few
 * binary searches, so a walk goes on from any depth at the cost of its first page.
 */
export function rankAfter<E extends Ordered>(view: OrderView<E>, descending: boolean, position: ListPosition): number {
  const valueOf = view.valueOf;
  const value = view.keyOf(position.value);
  const atOrBefore = view.countWhile((entry) => (compareValues(valueOf(entry), value) || compareIds(entry.id, position.id)) <= 0);
  if (!descending) return atOrBefore;
  // Descending, the larger values come first, and then the entries of position's own value up to its id.
  const below = view.countWhile((entry) => compareValues(valueOf(entry), value) < 0);
  const through = view.countWhile((entry) => compareValues(valueOf(entry), value) <= 0);
  return view.size - through + (atOrBefore - below);
}

/**
 * Walks a view's entries from a rank on, ascending or descending; descending, entries of
 * one value (a group) still come by id ascending, as every order breaks ties. The view
 * holds them ascending, so a descending walk goes through the groups from the last one
 * back, each from its first entry on.
 */
export class OrderWalk<E extends Ordered> {
  readonly #view: OrderView<E>;
  readonly #descending: boolean;
  /** The next entry's index, and the end of the run it is in: the view's end, or its group's end descending. */
  #index: number;
  #end: number;
  /** Descending: the first index of the current group. */
  #groupStart = 0;

  constructor(view: OrderView<E>, descending: boolean, rank: number) {
    this.#view = view;
    this.#descending = descending;
    const size = view.size;
    if (!descending || rank >= size) {
      this.#index = Math.min(rank, size);
      this.#end = size;
      return;
    }
    // The entry of that rank is in the group of the entry at the mirrored index, at its
    // place counted from the group's start.
    const value = view.valueOf(view.at(size - 1 - rank));
    this.#groupStart = view.countWhile((entry) => compareValues(view.valueOf(entry), value) < 0);
    this.#end = view.countWhile((entry) => compareValues(view.valueOf(entry), value) <= 0);
    this.#index = this.#groupStart + rank - (size - this.#end);
  }

  /** The next entry, or undefined at the end. */
  next(): E | undefined {
    if (this.#index < this.#end) return this.#view.at(this.#index++);
    if (!this.#descending || this.#groupStart === 0) return undefined;
    this.#end = this.#groupStart;
    this.#groupStart = this.#startOfGroupBefore(this.#end);
    this.#index = this.#groupStart;
    return this.#view.at(this.#index++);
  }

  /**
   * The first index of the group of the entry just before `end`: steps back in doubling
   * strides while the value holds, then a binary search, so a small group costs a step or
   * two and a large one a few more, never its length.
   */
  #startOfGroupBefore(end: number): number {
    const view = this.#view;
    const value = view.valueOf(view.at(end - 1));
    let known = end - 1;
    let stride = 1;
    while (known - stride >= 0 && view.valueOf(view.at(known - stride)) === value) {
      known -= stride;
      stride *= 2;
    }
    let low = Math.max(known - stride + 1, 0);
    while (low < known) {
      const middle = (low + known) >>> 1;
      if (view.valueOf(view.at(middle)) === value) known = middle;
      else low = middle + 1;
    }
    return known;
  }
}
