import { Agent, request } from 'node:http';
import { sampleOf, type Sample } from './load.js';
import { type ServerProcess } from './processes.js';
import { Latencies } from './stats.js';

/** One request of a paced load, made when it is due. */
export interface PacedRequest {
  readonly method: string;
  readonly path: string;
  /** A JSON body. */
  readonly body?: string;
}

export interface PacedSpec {
  readonly server: Pick<ServerProcess, 'url' | 'rssMb'>;
  readonly perSecond: number;
  readonly seconds: number;
  /** Keep-alive connections; a request due while all are busy waits for one, and that wait counts. */
  readonly connections: number;
  readonly headers?: Record<string, string> | undefined;
  readonly next: () => PacedRequest;
}

/** How often due requests are sent: Node's timers fire at best every millisecond. */
const TICK_MS = 1;

/**
 * How many of a load's `total` requests are due `elapsedMs` after its start, at
 * `perSecond`: request n (from 0) is due n / perSecond seconds in, whatever became of the
 * ones before.
 */
export function dueBy(elapsedMs: number, perSecond: number, total: number): number {
  if (elapsedMs < 0) return 0;
  return Math.min(total, Math.floor((elapsedMs * perSecond) / 1000) + 1);
}

/**
 * Sends `perSecond` requests a second, evenly spaced (an open loop): request n is sent n /
 * perSecond seconds after the start whatever became of the ones before, and its latency
 * counts from then, a wait for a free connection behind a stalled answer included. (Not
 * from when it was due: this process's own timer lag, up to a few ms, would count too.)
 * autocannon's own rate limit sends each second's quota as fast as the server answers and
 * then idles until the next second: bursts that saturate the server, so its latencies
 * measure that queue (the memory store showed the same p99 as SQLite under them).
 */
export async function runPaced(spec: PacedSpec): Promise<Sample> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections });
  const latencies = new Latencies();
  const total = Math.round(spec.perSecond * spec.seconds);
  const url = new URL(spec.server.url);
  let non2xx = 0;
  let errors = 0;
  let peakRss = spec.server.rssMb();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let lastAnswer = started;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss ?? 0, spec.server.rssMb() ?? 0);
  }, 200);
  const send = (): Promise<void> =>
    new Promise((resolve) => {
      const sent = performance.now();
      const { method, path, body } = spec.next();
      const headers = { ...spec.headers, ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }) };
      const req = request({ agent, host: url.hostname, port: url.port, method, path, headers, timeout: 10_000 }, (res) => {
        res.resume();
        res.on('end', () => {
          lastAnswer = performance.now();
          latencies.add(lastAnswer - sent);
          if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode > 299) non2xx += 1;
          resolve();
        });
      });
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end(body);
    });
  try {
    // Counted, not kept: a list of every request's promise grew through the run, and the
    // collector went through it at every young-generation collection, in this process's
    // own time, which the requests in flight were timed through.
    let sent = 0;
    await new Promise<void>((resolve) => {
      let open = 0;
      const answered = (): void => {
        open -= 1;
        if (sent === total && open === 0) resolve();
      };
      const tick = (): void => {
        const due = dueBy(performance.now() - started, spec.perSecond, total);
        while (sent < due) {
          sent += 1;
          open += 1;
          void send().then(answered);
        }
        if (sent < total) setTimeout(tick, TICK_MS);
        else if (open === 0) resolve();
      };
      tick();
    });
    const seconds = (lastAnswer - started) / 1000;
    return sampleOf(latencies, { seconds, wallSeconds: seconds, non2xx, errors, peakRssMb: peakRss, cpu: process.cpuUsage(cpuBefore) });
  } finally {
    clearInterval(sampler);
    agent.destroy();
  }
}
