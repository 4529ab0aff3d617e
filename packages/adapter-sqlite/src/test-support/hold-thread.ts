/** Holds this thread for `ms`, as a busy turn of the event loop would: no callback runs meanwhile. */
export function holdThread(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
