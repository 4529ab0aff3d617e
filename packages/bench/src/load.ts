import autocannon from 'autocannon';
import { type ServerProcess } from './processes.js';
import { Latencies, percentile } from './stats.js';

/** What one run of load measured. */
export interface Sample {
  readonly requests: number;
  readonly seconds: number;
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
  /** The server's largest resident set seen during the run, in MB. */
  readonly peakRssMb: number | undefined;
  /** CPU the load generator used, in % of one core: near 100 means it, not the server, set the pace. */
  readonly generatorCpuPct: number;
  /** CPU time the server used during the run, in ms; undefined where it could not be read. */
  readonly serverCpuMs: number | undefined;
}

export interface LoadSpec {
  readonly server: ServerProcess;
  readonly requests: autocannon.Request[];
  readonly connections: number;
  /** Run for this long, or ... */
  readonly seconds?: number;
  /** ... send exactly this many requests, ... */
  readonly amount?: number;
  /** ... but stop after this many seconds all the same. */
  readonly maxSeconds?: number;
  /** Requests a second across all connections; unset, as fast as the server answers. */
  readonly overallRate?: number;
  readonly headers?: Record<string, string>;
}

/** The sample of a run that had nothing to send, such as deletes after a create that made nothing. */
export function emptySample(server: ServerProcess): Sample {
  const nothing = Number.NaN;
  return { requests: 0, seconds: 0, reqPerSec: 0, p50Ms: nothing, p99Ms: nothing, non2xx: 0, errors: 0, peakRssMb: server.rssMb(), generatorCpuPct: 0, serverCpuMs: 0 };
}

/** How a finished run went, beside its latencies. */
export interface RunCounts {
  /** From the start to the last answer. */
  readonly seconds: number;
  /** From the start to now, for the generator's CPU share. */
  readonly wallSeconds: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly peakRssMb: number | undefined;
  /** The generator's CPU use during the run (`process.cpuUsage(before)`). */
  readonly cpu: NodeJS.CpuUsage;
  readonly serverCpuMs?: number | undefined;
}

/** The sample of a finished run. */
export function sampleOf(latencies: Latencies, run: RunCounts): Sample {
  const sorted = latencies.sorted();
  return {
    requests: latencies.count,
    seconds: run.seconds,
    reqPerSec: latencies.count / Math.max(run.seconds, 0.001),
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    non2xx: run.non2xx,
    errors: run.errors,
    peakRssMb: run.peakRssMb,
    generatorCpuPct: ((run.cpu.user + run.cpu.system) / 1e6 / Math.max(run.wallSeconds, 0.001)) * 100,
    serverCpuMs: run.serverCpuMs,
  };
}

/** Runs autocannon against a server and measures latency, throughput and the server's RSS. */
export async function runLoad(spec: LoadSpec): Promise<Sample> {
  const latencies = new Latencies();
  let non2xx = 0;
  let peakRss = spec.server.rssMb();
  const started = performance.now();
  // Timed from the start to the last response: autocannon ends a run at its next 1 s tick,
  // so its own duration can hold up to a second of nothing after an `amount` run.
  let lastResponse = started;
  const sampler = setInterval(() => {
    const rss = spec.server.rssMb();
    if (rss !== undefined) peakRss = Math.max(peakRss ?? 0, rss);
  }, 200);
  const cpuBefore = process.cpuUsage();
  const serverCpuBefore = spec.server.cpuMs();
  try {
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: spec.server.url,
          connections: spec.amount === undefined ? spec.connections : Math.min(spec.connections, spec.amount),
          ...(spec.amount === undefined ? { duration: spec.seconds ?? 10 } : { amount: spec.amount }),
          ...(spec.overallRate === undefined ? {} : { overallRate: spec.overallRate }),
          headers: spec.headers ?? {},
          requests: spec.requests,
          timeout: 10,
        },
        (error: Error | null, done: autocannon.Result) => {
          if (error === null) resolve(done);
          else reject(error);
        },
      );
      if (spec.maxSeconds !== undefined) {
        setTimeout(() => {
          instance.stop();
        }, spec.maxSeconds * 1000).unref();
      }
      instance.on('response', (_client, status, _bytes, ms) => {
        lastResponse = performance.now();
        latencies.add(ms);
        if (status < 200 || status > 299) non2xx += 1;
      });
    });
    const seconds = (lastResponse - started) / 1000;
    const wallSeconds = (performance.now() - started) / 1000;
    const serverCpuAfter = spec.server.cpuMs();
    const serverCpuMs = serverCpuBefore === undefined || serverCpuAfter === undefined ? undefined : serverCpuAfter - serverCpuBefore;
    return sampleOf(latencies, { seconds, wallSeconds, non2xx, errors: result.errors, peakRssMb: peakRss, cpu: process.cpuUsage(cpuBefore), serverCpuMs });
  } finally {
    clearInterval(sampler);
  }
}
