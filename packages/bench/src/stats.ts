/** The value below which `fraction` of the sorted values lie (nearest rank). */
export function percentile(sorted: ArrayLike<number>, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** The middle value; the mean of the two middle ones for an even count. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? Number.NaN) + upper) / 2;
}

/** Latencies in ms, kept in a growing Float64Array so a run of a million costs 8 MB, not a million boxes. */
export class Latencies {
  #values = new Float64Array(1 << 16);
  #count = 0;

  get count(): number {
    return this.#count;
  }

  add(ms: number): void {
    if (this.#count === this.#values.length) {
      const bigger = new Float64Array(this.#values.length * 2);
      bigger.set(this.#values);
      this.#values = bigger;
    }
    this.#values[this.#count++] = ms;
  }

  /** The values sorted ascending. */
  sorted(): Float64Array {
    return this.#values.slice(0, this.#count).sort();
  }
}
