import { fork, type ChildProcess } from 'node:child_process';
import { type Sample } from './load.js';
import { type ServerProcess } from './processes.js';

/** What a paced load sends, described so that it can be handed to the generator process. */
export type PacedRequests =
  /** GET of a random one of `ids`' records. */
  | { readonly kind: 'find'; readonly ids: readonly string[] }
  /** POST of a value no request of the run sent before. */
  | { readonly kind: 'create' }
  /** GET of `path`. */
  | { readonly kind: 'get'; readonly path: string };

export interface PacedLoad {
  readonly perSecond: number;
  readonly connections: number;
  readonly requests: PacedRequests;
}

/** Paced loads sent together to one server for `seconds`. */
export interface PacedRun {
  readonly server: Pick<ServerProcess, 'url' | 'pid'>;
  readonly seconds: number;
  readonly headers?: Record<string, string> | undefined;
  readonly loads: readonly PacedLoad[];
}

/** A run as sent to the generator process, and what comes back. */
export type RunMessage = PacedRun & { readonly id: number };
export type RunAnswer = { readonly id: number } & ({ readonly samples: Sample[] } | { readonly failure: string });

/** The seconds the generator's first loads are sent uncounted (`warm`). */
export interface GeneratorOptions {
  readonly warmupSeconds: number;
}

/**
 * The process paced loads are sent from (`paced-process.ts`): one of its own, for the whole
 * bench, beside the process that runs autocannon and keeps every result. A paced load times
 * each request in the sending process's own time, so a pause of that process counts as the
 * server's: in the bench's process, collections of its growing heap, and V8's helper
 * threads doing them, took the core while requests were in flight. This one holds only the
 * run at hand. It inherits the bench's core, and is warmed before its first run (`warm`), so no
 * run is timed through the first requests of a fresh process (docs/benchmarks/README.md,
 * "Where paced loads are sent from").
 */
export class PacedGenerator {
  readonly #child: ChildProcess;
  readonly #options: GeneratorOptions;
  readonly #waiting = new Map<number, { resolve: (samples: Sample[]) => void; reject: (error: Error) => void }>();
  #nextId = 1;
  #warmed = false;

  private constructor(child: ChildProcess, options: GeneratorOptions) {
    this.#child = child;
    this.#options = options;
    child.on('message', (answer: RunAnswer) => {
      const waiting = this.#waiting.get(answer.id);
      this.#waiting.delete(answer.id);
      if ('failure' in answer) waiting?.reject(new Error(`paced generator: ${answer.failure}`));
      else waiting?.resolve(answer.samples);
      this.#idleUnlessWaiting();
    });
    child.on('exit', (code, signal) => {
      for (const waiting of this.#waiting.values()) waiting.reject(new Error(`paced generator exited (${signal ?? code})`));
      this.#waiting.clear();
    });
    this.#idleUnlessWaiting();
  }

  static start(options: GeneratorOptions): PacedGenerator {
    // Run from the sources (the tests), the built module: a process cannot run TypeScript.
    const script = new URL(import.meta.url.endsWith('.ts') ? '../dist/paced-process.js' : './paced-process.js', import.meta.url);
    // Not the bench's own flags (a --cpu-prof of it, say): a generator as plain as can be.
    return new PacedGenerator(fork(script, { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }), options);
  }

  /**
   * Sends `run`'s loads for the warm-up's seconds, uncounted, the first time only: a caller
   * that starts other loads beside a run warms the generator before starting them.
   */
  async warm(run: PacedRun): Promise<void> {
    if (this.#warmed) return;
    this.#warmed = true;
    if (this.#options.warmupSeconds > 0) await this.run({ ...run, seconds: this.#options.warmupSeconds });
  }

  /** Sends `run`'s loads together; a sample per load, in order. */
  run(run: PacedRun): Promise<Sample[]> {
    const id = this.#nextId++;
    // The server as data: its URL to send to, its pid to read the RSS of.
    const message: RunMessage = { ...run, id, server: { url: run.server.url, pid: run.server.pid } };
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#child.ref();
      this.#child.channel?.ref();
      this.#child.send(message);
    });
  }

  /** Ends the process, and with it any run it was sending. */
  async stop(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.#child.once('exit', resolve));
    this.#child.disconnect();
    await exited;
  }

  // An idle generator does not keep the bench's process alive.
  #idleUnlessWaiting(): void {
    if (this.#waiting.size > 0) return;
    this.#child.unref();
    this.#child.channel?.unref();
  }
}

/** Seconds of the first run sent uncounted: past the burst of slow requests a fresh generator times, whatever the server. */
export const PACED_WARMUP_SECONDS = 8;

let shared: PacedGenerator | undefined;

/** The bench's generator of paced loads, started when first asked for. */
function sharedGenerator(): PacedGenerator {
  shared ??= PacedGenerator.start({ warmupSeconds: PACED_WARMUP_SECONDS });
  return shared;
}

/** Warms the bench's generator with `run`'s loads, if it was not yet: before starting other loads beside a run. */
export function warmPacedGenerator(run: PacedRun): Promise<void> {
  return sharedGenerator().warm(run);
}

/** Sends `run`'s loads from the bench's generator, warmed first if it was not yet; a sample per load, in order. */
export async function runPacedApart(run: PacedRun): Promise<Sample[]> {
  await warmPacedGenerator(run);
  return sharedGenerator().run(run);
}
