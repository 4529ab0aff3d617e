import { startApp } from './app.js';
import { seed, type Plan } from './compare.js';
import { runLoad, type Sample } from './load.js';
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
  /** Median of the last ten seconds less that of the first ten: near 0 when flat. */
  readonly rssGrowthMb: number | undefined;
}

const READS_PER_WRITE_PAIR = 8;

/**
 * A fixed rate on a constant data set: finds of seeded ids, and creates of unique values
 * each followed by the delete of what it made; records the app's RSS every second.
 */
export async function soak(plan: Plan, seconds: number, rate: number, seedRecords: number, pinned: boolean): Promise<SoakResult> {
  const app = await startApp({ storage: 'memory' }, pinned);
  try {
    const ids = await seed(app, seedRecords, plan);
    const base = { server: app, connections: plan.connections, headers: plan.headers, overallRate: rate };
    const requests = soakRequests(ids, READS_PER_WRITE_PAIR);
    if (plan.warmupSeconds > 0) await runLoad({ ...base, requests, seconds: plan.warmupSeconds });
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
    const window = Math.min(10, Math.floor(trace.length / 2));
    const rssGrowthMb = window === 0 ? undefined : median(trace.slice(-window)) - median(trace.slice(0, window));
    console.log(
      `soak ${seconds} s at ${rate} req/s: ${sample.requests} requests, ${sample.non2xx} non-2xx, ${sample.errors} errors, ` +
        `p99 ${sample.p99Ms.toFixed(2)} ms, rss ${rssStartMb?.toFixed(1) ?? '?'} -> ${rssEndMb?.toFixed(1) ?? '?'} MB`,
    );
    return { seconds, rate, sample, rssTrace: trace, rssStartMb, rssEndMb, rssGrowthMb };
  } finally {
    await app.stop();
  }
}
