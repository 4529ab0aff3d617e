import { type DestinationStream } from 'pino';

/** What a batch is handed to: sonic-boom in practice. */
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
 * Gathers log lines and hands them to `sink` as one string per batch: when about `maxChars`
 * have gathered, every `flushEveryMs`, and on close or exit. sonic-boom measures and copies
 * its whole pending buffer on each write, which under load cost more per request line than
 * making the line did (`pnpm bench --profile`); once per batch of many lines, it costs next
 * to nothing.
 *
 * A log that cannot be written (a full disk) must not stop the service, which an `error`
 * event with no listener would, nor hold its exit: sonic-boom's `flushSync` tries a write
 * that fails for want of room again for as long as it fails. So `close` (the end of a
 * shutdown) waits, a bounded time, for the sink's own writes; only an exit that skipped
 * `close` flushes synchronously, and not while writes fail.
 */
export class LineBatch implements DestinationStream {
  readonly #sink: LineSink;
  readonly #maxChars: number;
  readonly #interval: NodeJS.Timeout;
  // However the process ends short of SIGKILL, the last lines are written.
  readonly #onExit = (): void => {
    this.#stop();
    if (!this.#failing) this.#sink.flushSync();
  };
  #lines: string[] = [];
  #chars = 0;
  /** Lines handed to the sink that it has not written yet. */
  #unwritten = false;
  /** A write to the sink failed, and none has succeeded since. */
  #failing = false;

  constructor(sink: LineSink, options: { maxChars: number; flushEveryMs: number }) {
    this.#sink = sink;
    sink.on('error', () => {
      this.#failing = true;
    });
    sink.on('drain', () => {
      this.#failing = false;
      this.#unwritten = false;
    });
    this.#maxChars = options.maxChars;
    this.#interval = setInterval(() => {
      this.flush();
    }, options.flushEveryMs).unref();
    process.once('exit', this.#onExit);
  }

  write(line: string): void {
    this.#lines.push(line);
    this.#chars += line.length;
    if (this.#chars >= this.#maxChars) this.flush();
  }

  /**
   * Hands over what has gathered and resolves once the sink has written everything, or a
   * write of it failed, or `CLOSE_WAIT_MS` passed; stops the interval and the exit hook.
   * The sink tries what failed before again, so it is written if there is room again.
   */
  async close(): Promise<void> {
    const handed = this.#lines.length > 0;
    this.#stop();
    if (!this.#unwritten) return;
    // A failed write is tried again only with the next one: an empty one, if no line came since.
    if (this.#failing && !handed) this.#sink.write('');
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
    });
  }

  /** Hands over whatever has gathered. */
  flush(): void {
    if (this.#lines.length === 0) return;
    const batch = this.#lines.join('');
    this.#lines = [];
    this.#chars = 0;
    this.#unwritten = true;
    this.#sink.write(batch);
  }

  /** Hands over the rest, and stops the interval and the exit hook. */
  #stop(): void {
    clearInterval(this.#interval);
    process.off('exit', this.#onExit);
    this.flush();
  }
}
