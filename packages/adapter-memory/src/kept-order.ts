import { OrderView, type Ordered, type OrderValue } from './order-view.js';

// A write moves the entries of one chunk, not of the whole order, so it costs the same at
// any size; a chunk is split above the largest size and merged with a neighbour below the
// smallest, so chunks stay few and reads find one in a few steps. Moving an entry within a
// chunk costs a few nanoseconds (V8 records each moved reference for its collector), so a
// chunk is kept small enough that the moves of a write cost less than finding its place.
const LARGEST_CHUNK = 256;
const SMALLEST_CHUNK = 64;

/** Compares two values of one order: dates by time, texts' keys as strings (so texts by code point). */
export function compareValues(a: OrderValue, b: OrderValue): number {
  if (typeof a === 'number') return a - (b as number);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares ids, the tie-breaker: ascending, whatever the order's direction. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Entries kept in ascending order of their value, then id, in chunks. A view of the order
 * is cheap to take and never changes (copy on write): a write after a `snapshot()` copies
 * the chunk it changes (and the list of chunks) rather than changing what a view reads.
 */
export class KeptOrder<E extends Ordered> {
  readonly valueOf: (entry: E) => OrderValue;
  /** The value a position outside the order (a cursor's) sorts by here. */
  readonly keyOf: (value: OrderValue) => OrderValue;
  #chunks: E[][] = [];
  #size = 0;
  /** Whether a snapshot may read the list of chunks. */
  #chunksShared = false;
  /** The chunks made or copied since the last snapshot: only these may change in place. */
  #owned = new WeakSet<E[]>();

  constructor(valueOf: (entry: E) => OrderValue, keyOf: (value: OrderValue) => OrderValue = (value) => value) {
    this.valueOf = valueOf;
    this.keyOf = keyOf;
  }

  get size(): number {
    return this.#size;
  }

  compare(a: E, b: E): number {
    return compareValues(this.valueOf(a), this.valueOf(b)) || compareIds(a.id, b.id);
  }

  insert(entry: E): void {
    const chunks = this.#writableChunks();
    this.#size += 1;
    if (chunks.length === 0) {
      chunks.push(this.#own([entry]));
      return;
    }
    const index = Math.min(this.#chunkIndexOf(entry), chunks.length - 1);
    const chunk = this.#writableChunk(index);
    chunk.splice(placeIn(chunk, entry, this), 0, entry);
    if (chunk.length > LARGEST_CHUNK) chunks.splice(index + 1, 0, this.#own(chunk.splice(chunk.length >>> 1)));
  }

  /** Removes the entry at `entry`'s place (its value and id); false when none is there. */
  remove(entry: E): boolean {
    const found = this.#find(entry);
    if (found === undefined) return false;
    const chunks = this.#writableChunks();
    const chunk = this.#writableChunk(found.chunk);
    chunk.splice(found.offset, 1);
    this.#size -= 1;
    if (chunk.length === 0) chunks.splice(found.chunk, 1);
    else if (chunk.length < SMALLEST_CHUNK) this.#mergeAround(found.chunk);
    return true;
  }

  /** Puts `entry` in the place of the one with its value and id (a record changed in what this order does not read). */
  replace(entry: E): boolean {
    const found = this.#find(entry);
    if (found === undefined) return false;
    this.#writableChunk(found.chunk)[found.offset] = entry;
    return true;
  }

  /** The entries from `start` to `end` (exclusive) in order. */
  slice(start: number, end: number): E[] {
    let found: E[] = [];
    let offset = 0;
    for (const chunk of this.#chunks) {
      if (offset >= end) break;
      if (offset + chunk.length > start) {
        const part = chunk.slice(Math.max(start - offset, 0), Math.min(end - offset, chunk.length));
        found = found.length === 0 ? part : found.concat(part);
      }
      offset += chunk.length;
    }
    return found;
  }

  /** A view of the order as it is now, for use before the next write (in the same synchronous step). */
  view(): OrderView<E> {
    return new OrderView(this.#chunks, this.#size, this.valueOf, this.keyOf);
  }

  /** A view of the order as it is now that stays so, whatever is written later. */
  snapshot(): OrderView<E> {
    this.#chunksShared = true;
    this.#owned = new WeakSet();
    return this.view();
  }

  #own(chunk: E[]): E[] {
    this.#owned.add(chunk);
    return chunk;
  }

  #writableChunks(): E[][] {
    if (this.#chunksShared) {
      this.#chunks = this.#chunks.slice();
      this.#chunksShared = false;
    }
    return this.#chunks;
  }

  #writableChunk(index: number): E[] {
    const chunks = this.#writableChunks();
    const chunk = chunks[index] as E[];
    if (this.#owned.has(chunk)) return chunk;
    const copy = this.#own(chunk.slice());
    chunks[index] = copy;
    return copy;
  }

  /** Merges the chunk at `index` with a neighbour when both fit in one. */
  #mergeAround(index: number): void {
    const chunks = this.#writableChunks();
    const left = index > 0 && (chunks[index - 1]?.length ?? 0) <= (chunks[index + 1]?.length ?? Infinity) ? index - 1 : index;
    const first = chunks[left];
    const second = chunks[left + 1];
    if (first === undefined || second === undefined || first.length + second.length > LARGEST_CHUNK) return;
    chunks.splice(left, 2, this.#own(first.concat(second)));
  }

  /** The first chunk whose last entry is not before `entry` (the number of chunks if none). */
  #chunkIndexOf(entry: E): number {
    let low = 0;
    let high = this.#chunks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const chunk = this.#chunks[middle] as E[];
      if (this.compare(chunk[chunk.length - 1] as E, entry) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #find(entry: E): { chunk: number; offset: number } | undefined {
    const index = this.#chunkIndexOf(entry);
    const chunk = this.#chunks[index];
    if (chunk === undefined) return undefined;
    const offset = placeIn(chunk, entry, this);
    const there = chunk[offset];
    return there !== undefined && this.compare(there, entry) === 0 ? { chunk: index, offset } : undefined;
  }
}

/** Where `entry` stands, or would stand, in a sorted chunk (binary search). */
function placeIn<E extends Ordered>(chunk: readonly E[], entry: E, order: KeptOrder<E>): number {
  let low = 0;
  let high = chunk.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (order.compare(chunk[middle] as E, entry) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
