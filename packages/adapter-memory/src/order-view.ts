/** What an order sorts by: a date in epoch milliseconds, or a folded text's `codePointKey`. */
export type OrderValue = number | string;

/** What an order holds: anything with an id, the tie-breaker of every order. */
export interface Ordered {
  readonly id: string;
}

/** A fixed view of a kept order: its entries by index, ascending. */
export class OrderView<E extends Ordered> {
  readonly size: number;
  readonly valueOf: (entry: E) => OrderValue;
  readonly keyOf: (value: OrderValue) => OrderValue;
  readonly #chunks: readonly (readonly E[])[];
  /** The index of each chunk's first entry, and the size last. */
  readonly #starts: number[];
  /** The chunk the last read was in: reads in a walk are mostly in the same one. */
  #chunk = 0;

  constructor(chunks: readonly (readonly E[])[], size: number, valueOf: (entry: E) => OrderValue, keyOf: (value: OrderValue) => OrderValue) {
    this.size = size;
    this.valueOf = valueOf;
    this.keyOf = keyOf;
    this.#chunks = chunks;
    this.#starts = [0];
    for (const chunk of chunks) this.#starts.push((this.#starts.at(-1) ?? 0) + chunk.length);
  }

  /** The entry at `index` (0 to size - 1). */
  at(index: number): E {
    let chunk = this.#chunk;
    if (index < (this.#starts[chunk] as number) || index >= (this.#starts[chunk + 1] as number)) {
      chunk = this.#chunkHolding(index);
      this.#chunk = chunk;
    }
    return (this.#chunks[chunk] as readonly E[])[index - (this.#starts[chunk] as number)] as E;
  }

  /** How many entries, from the first, pass `test`: it must pass a first part of the order and fail the rest. */
  countWhile(test: (entry: E) => boolean): number {
    let low = 0;
    let high = this.#chunks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const chunk = this.#chunks[middle] as readonly E[];
      if (test(chunk[chunk.length - 1] as E)) low = middle + 1;
      else high = middle;
    }
    const chunk = this.#chunks[low];
    if (chunk === undefined) return this.size;
    let first = 0;
    let last = chunk.length;
    while (first < last) {
      const middle = (first + last) >>> 1;
      if (test(chunk[middle] as E)) first = middle + 1;
      else last = middle;
    }
    return (this.#starts[low] as number) + first;
  }

  #chunkHolding(index: number): number {
    let low = 0;
    let high = this.#chunks.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((this.#starts[middle] as number) <= index) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}
