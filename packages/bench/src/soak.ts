import { startApp } from './app.js';
import { seed, type Plan } from './compare.js';
import { liveHeapMb } from './live-heap.js';
import { runLoad, type Sample } from './load.js';
import { freePort } from './processes.js';
import { soakRequests } from './workloads.js';

export interface SoakResult {
  readonly seconds: number;
  readonly rate: number;
  readonly sample: Sample;
  /** The heap in use after a full collection, when the measured part starts and when it ends (`liveHeapMb`). */
  readonly liveHeapStartMb: number;
  readonly liveHeapEndMb: number;
}

const READS_PER_WRITE_PAIR = 8;

/**
 * A fixed rate on a constant data set: finds of seeded ids, and creates of unique values
 * each followed by the delete of what it made; the app's heap after a full collection at
 * both ends (`liveHeapMb`), since RSS climbs between the collector's full collections and
 * drops at each, so it cannot tell a leak from garbage not yet collected. The app runs
 * with the inspector on a loopback port for that.
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
    const sample = await runLoad({ ...base, requests: soakRequests(ids, READS_PER_WRITE_PAIR), seconds });
    const liveHeapEndMb = await liveHeapMb(inspectPort);
    console.log(
      `soak ${seconds} s at ${rate} req/s: ${sample.requests} requests, ${sample.non2xx} non-2xx, ${sample.errors} errors, ` +
        `p99 ${sample.p99Ms.toFixed(2)} ms, live heap ${liveHeapStartMb.toFixed(1)} -> ${liveHeapEndMb.toFixed(1)} MB`,
    );
    return { seconds, rate, sample, liveHeapStartMb, liveHeapEndMb };
  } finally {
    await app.stop();
  }
}
