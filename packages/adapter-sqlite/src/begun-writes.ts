// No id is ever this; the cell holds it once writes are stopped.
const STOPPED = -1n;

/**
 * Which of a writer's writes its thread has begun, in memory both share, so that a storage
 * shutting down can tell, without waiting on a thread that may be stuck on a lock, the
 * writes it may refuse (never begun: nothing of them reaches the file) from the one it
 * must wait for. Writes are begun in the order of their ids, which rise.
 */
export class BegunWrites {
  /** Pass it to the thread, which makes its own `BegunWrites` over it. */
  readonly cell: BigInt64Array;
  #lastAtStop: bigint | undefined;

  constructor(cell: BigInt64Array = new BigInt64Array(new SharedArrayBuffer(8))) {
    this.cell = cell;
  }

  /** In the thread, before it runs write `id`: false once writes are stopped, and then it must not run it. */
  begin(id: number): boolean {
    const last = Atomics.load(this.cell, 0);
    // One atomic step: a stop between the load and here makes the exchange fail.
    return last !== STOPPED && Atomics.compareExchange(this.cell, 0, last, BigInt(id)) === last;
  }

  /** In the thread, between tries of a write waiting for a lock: whether to give it up (it changed nothing yet). */
  isStopped(): boolean {
    return Atomics.load(this.cell, 0) === STOPPED;
  }

  /** No write begins from now on; answers the id of the last that did (0 when none did). */
  stop(): number {
    this.#lastAtStop ??= Atomics.exchange(this.cell, 0, STOPPED);
    return Number(this.#lastAtStop);
  }
}
