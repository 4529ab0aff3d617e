import { startApp } from './app.js';
import { seed, type Plan } from './compare.js';
import { liveHeapMb } from './live-heap.js';
import { runLoad, type Sample } from './load.js';
import { freePort } from './processes.js';
import { median } from './stats.js';
import { soakRequests } from './workloads.js';

export interface SoakResult {
  readonly seconds: number;
  readonly rate: number;
  readonly sample: Sample;
  /** The app's RSS each second, in MB, from the first measured second. */
  readonly rssTrace: readonly number[];
  readonly rssStartMb: number | undefined;
  readonly rssEndMb: number | undefined;
  /** Median of the last ten seconds less that of the first ten: moves with the collector's cycle, so only reported. */
  readonly rssGrowthMb: number | undefined;
  /** The heap in use after a full collection, when the measured part starts and when it ends (`liveHeapMb`). */
  readonly liveHeapStartMb: number;
  readonly liveHeapEndMb: number;
}

const READS_PER_WRITE_PAIR = 8;

/**
 * A fixed rate on a constant data set: finds of seeded ids, and creates of unique values
 * each followed by the delete of what it made; records the app's RSS every second, and its
 * heap after a full collection at both ends (`liveHeapMb`): RSS climbs between the
 * collector's full collections and drops at each, so on its own it cannot tell a leak from
 * garbage not yet collected. The app runs with the inspector on a loopback port for that;
 * the collection forced at the start also lowers the RSS the trace starts from.
 */
export async function soak(plan: Plan, seconds: number, rate: number, seedRecords: number, pinned: boolean): Promise<SoakResult> {
  const inspectPort = await freePort();
  const app = await startApp({ storage: 'memory', nodeFlags: [`--inspect=127.0.0.1:${inspectPort}`] }, pinned);
  try {
    const ids = await seed(app, seedRecords, plan);
    const base = { server: app, connections: plan.connections, headers: plan.headers, overallRate: rate };
    const requests = soakRequests(ids, READS_PER_WRITE_PAIR);
    if (plan.warmupSeconds > 0) await runLoad({ ...base, requests, seconds: plan.warmupSeconds });
    const liveHeapStartMb = await liveHeapMb(inspectPort);
    const trace: number[] = [];
    const rssStartMb = app.rssMb();
    const sample = await runLoad({
      ...base,
      requests: soakRequests(ids, READS_PER_WRITE_PAIR),
      seconds,
      onSecond: (rss) => {
        if (rss !== undefined) trace.push(rss);
      },
    });
    const rssEndMb = app.rssMb();
    const liveHeapEndMb = await liveHeapMb(inspectPort);
    const window = Math.min(10, Math.floor(trace.length / 2));
    const rssGrowthMb = window === 0 ? undefined : median(trace.slice(-window)) - median(trace.slice(0, window));
    console.log(
      `soak ${seconds} s at ${rate} req/s: ${sample.requests} requests, ${sample.non2xx} non-2xx, ${sample.errors} errors, ` +
        `p99 ${sample.p99Ms.toFixed(2)} ms, rss ${rssStartMb?.toFixed(1) ?? '?'} -> ${rssEndMb?.toFixed(1) ?? '?'} MB, ` +
        `live heap ${liveHeapStartMb.toFixed(1)} -> ${liveHeapEndMb.toFixed(1)} MB`,
    );
    return { seconds, rate, sample, rssTrace: trace, rssStartMb, rssEndMb, rssGrowthMb, liveHeapStartMb, liveHeapEndMb };
  } finally {
    await app.stop();
  }
}
