import { type DestinationStream } from 'pino';

/** What a batch is handed to: pino's own destination (sonic-boom) in practice. */
export interface LineSink {
  write(data: string): unknown;
  flushSync(): void;
  /** `error`: a write failed (a full disk); `write`: one succeeded since. */
  on(event: 'error' | 'write', listener: () => void): unknown;
}

/**
 * Gathers log lines and hands them to `sink` as one string per batch: when about `maxChars`
 * have gathered, every `flushEveryMs`, and on exit. sonic-boom measures and copies its whole
 * pending buffer on each write, which under load cost more per request line than making the
 * line did (`pnpm bench --profile`); once per batch of many lines, it costs next to nothing.
 */
export class LineBatch implements DestinationStream {
  readonly #sink: LineSink;
  readonly #maxChars: number;
  readonly #interval: NodeJS.Timeout;
  // However the process ends short of SIGKILL, the last lines are written.
  readonly #onExit = (): void => {
    this.close();
  };
  #lines: string[] = [];
  #chars = 0;
  /**
   * A write to the sink failed and none succeeded since. The sink keeps what failed and tries
   * it again with the next write; a log that cannot be written must not stop the service,
   * which an `error` event with no listener would, nor hold its exit: sonic-boom's
   * `flushSync` tries a write that fails for want of room again for as long as it fails.
   */
  #failing = false;

  constructor(sink: LineSink, options: { maxChars: number; flushEveryMs: number }) {
    this.#sink = sink;
    sink.on('error', () => {
      this.#failing = true;
    });
    sink.on('write', () => {
      this.#failing = false;
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

  /** Writes what has gathered, waits for the sink to write it, and stops the interval and exit hook. */
  close(): void {
    clearInterval(this.#interval);
    process.off('exit', this.#onExit);
    this.flush();
    if (!this.#failing) this.#sink.flushSync();
  }

  /** Hands over whatever has gathered. */
  flush(): void {
    if (this.#lines.length === 0) return;
    const batch = this.#lines.join('');
    this.#lines = [];
    this.#chars = 0;
    this.#sink.write(batch);
  }
}
