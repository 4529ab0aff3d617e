import { type AbortSignalLike } from '@workplan/core';

/** Work that goes through many entries, done a slice at a time. */
export interface Scan<T> {
  /** Works on until done or until `timeIsUp()` says so; true when done. */
  advance(timeIsUp: () => boolean): boolean;
  /** The answer, once `advance` has said it is done. */
  result(): T;
}

export interface ScanLaneOptions {
  /** How long a slice of a scan may hold the event loop, in milliseconds. */
  readonly sliceMs?: number;
}

const DEFAULT_SLICE_MS = 1;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Where the long reads of a process run: a search through every record of a kind holds the
 * event loop for as long as it takes, and every other request of the process (a find, a
 * health check) waits behind it. So a scan works in slices of about `sliceMs` and leaves
 * the event loop between them, for one turn, so waiting I/O is served.
 *
 * One scan runs at a time, the others wait in line (first come, first served): were each
 * to yield on its own, a turn of the event loop would run a slice of every scan under way,
 * and with sixteen of them a find would wait sixteen slices, not one. In line, a turn runs
 * one slice, whatever the number of scans, and a find waits for at most that.
 */
export class ScanLane {
  readonly #sliceMs: number;
  #running = false;
  readonly #waiting: (() => void)[] = [];

  constructor(options: ScanLaneOptions = {}) {
    this.#sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
  }

  /**
   * Runs the scan `begin` makes, once its turn in line has come, to its end; rejects with
   * `signal`'s reason once that aborts, checked before each slice.
   */
  async run<T>(begin: () => Scan<T>, signal?: AbortSignalLike): Promise<T> {
    signal?.throwIfAborted();
    await this.#enter();
    try {
      signal?.throwIfAborted();
      const scan = begin();
      for (;;) {
        const until = performance.now() + this.#sliceMs;
        if (scan.advance(() => performance.now() >= until)) return scan.result();
        await nextTurn();
        signal?.throwIfAborted();
      }
    } finally {
      this.#leave();
    }
  }

  async #enter(): Promise<void> {
    if (!this.#running) {
      this.#running = true;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #leave(): void {
    const next = this.#waiting.shift();
    if (next === undefined) {
      this.#running = false;
      return;
    }
    // On the next turn: the scan that ends may have run a slice in this one.
    setImmediate(next);
  }
}

/** The lane the repositories of this process share, so their scans queue together. */
export const processScanLane = new ScanLane();
