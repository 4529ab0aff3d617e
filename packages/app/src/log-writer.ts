import { type DestinationStream } from 'pino';

/** What the lines are handed to: sonic-boom in practice. */
export interface LineSink {
  write(data: string): unknown;
  flushSync(): void;
  /** `error`: a write failed (a full disk), and what it held waits for the next write; `drain`: everything handed over is written. */
  on(event: 'error' | 'drain', listener: () => void): unknown;
  off(event: 'error' | 'drain', listener: () => void): unknown;
}

/**
 * How long `close` waits for the sink to write the last lines: long enough for a log reader
 * that stalls a moment (a shipper's hiccup, a paused terminal), short enough that a log that
 * cannot be written does not hold a shutdown past an orchestrator's grace (30 s by default)
 * after SHUTDOWN_TIMEOUT_MS (10 s by default).
 */
export const CLOSE_WAIT_MS = 5000;

/**
 * Hands each log line to `sink` (sonic-boom, which writes asynchronously and gathers what
 * comes while a write is in flight), and sees that a log that cannot be written (a full
 * disk) neither stops the service, which an `error` event with no listener would, nor holds
 * its exit: sonic-boom's `flushSync` tries a write that fails for want of room again for as
 * long as it fails. So `close` (the end of a shutdown) waits, a bounded time, for the sink's
 * own writes; only an exit that skipped `close` flushes synchronously, and not while writes
 * fail.
 */
export class LogWriter implements DestinationStream {
  readonly #sink: LineSink;
  // However the process ends short of SIGKILL, the last lines are written.
  readonly #onExit = (): void => {
    if (!this.#failing) this.#sink.flushSync();
  };
  /** Lines handed to the sink that it has not written yet. */
  #unwritten = false;
  /** A write to the sink failed, and none has succeeded since. */
  #failing = false;

  constructor(sink: LineSink) {
    this.#sink = sink;
    sink.on('error', () => {
      this.#failing = true;
    });
    sink.on('drain', () => {
      this.#failing = false;
      this.#unwritten = false;
    });
    process.once('exit', this.#onExit);
  }

  write(line: string): void {
    this.#unwritten = true;
    this.#sink.write(line);
  }

  /**
   * Resolves once the sink has written every line, or a write of them failed, or
   * `CLOSE_WAIT_MS` passed; stops the exit hook. The sink tries what failed before again,
   * so it is written if there is room again.
   */
  async close(): Promise<void> {
    process.off('exit', this.#onExit);
    if (!this.#unwritten) return;
    // A failed write is tried again only with the next one: an empty one, if none came since.
    const retry = this.#failing;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#sink.off('drain', done);
        this.#sink.off('error', done);
        resolve();
      };
      const timer = setTimeout(done, CLOSE_WAIT_MS);
      this.#sink.on('drain', done);
      this.#sink.on('error', done);
      if (retry) this.#sink.write('');
    });
  }
}
