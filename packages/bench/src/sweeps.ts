import { startApp, withDatabase } from './app.js';
import { describe, seed, type Plan } from './compare.js';
import { runLoad, type Sample } from './load.js';
import { type ServerProcess } from './processes.js';
import { dropDatabase } from './scenarios.js';
import { listRequests } from './workloads.js';

/** One list measured: `limit` records after `skip`, in a collection of `records`. */
export interface SweepPoint {
  readonly records: number;
  readonly skip: number;
  readonly limit: number;
  readonly sample: Sample;
}

export interface Sweep {
  /** Pages of 10, 100, 1000 from the start of the smallest collection. */
  readonly pageSize: readonly SweepPoint[];
  /** The last page of 100 of collections of 1k, 10k, 100k records. */
  readonly collectionSize: readonly SweepPoint[];
  /** The same page sizes on servers measured beside the app, point by point: `b`, `sqlite`. */
  readonly beside?: Readonly<Record<string, readonly SweepPoint[]>> | undefined;
}

export interface SweepSpec {
  readonly storage: 'memory' | 'mongodb';
  readonly mongodbUri?: string;
  readonly pageSizes: readonly number[];
  readonly collectionSizes: readonly number[];
  /** Servers whose pages are measured beside the app's, taken in turn at each page size, by key. */
  readonly beside?: Readonly<Record<string, () => Promise<ServerProcess>>>;
}

/** Measures list latency on a fresh app as the page, then the collection, grows. */
export async function listSweep(spec: SweepSpec, plan: Plan, pinned: boolean): Promise<Sweep> {
  const uri = spec.mongodbUri === undefined ? undefined : withDatabase(spec.mongodbUri, `workplan_bench_sweep_${Date.now()}`);
  const app = await startApp(uri === undefined ? { storage: spec.storage } : { storage: spec.storage, mongodbUri: uri }, pinned);
  const others: [string, ServerProcess][] = [];
  try {
    let records = spec.collectionSizes[0] ?? 1000;
    await seed(app, records, plan);
    for (const [key, start] of Object.entries(spec.beside ?? {})) {
      const server = await start();
      others.push([key, server]);
      await seed(server, records, plan);
    }
    const pageSize: SweepPoint[] = [];
    const beside = Object.fromEntries(others.map(([key]) => [key, [] as SweepPoint[]]));
    for (const limit of spec.pageSizes) {
      pageSize.push(await point(app, plan, records, 0, limit, spec.storage));
      for (const [key, server] of others) beside[key]?.push(await point(server, plan, records, 0, limit, `${spec.storage} ${key}`));
    }
    await Promise.all(others.map(([, server]) => server.stop()));
    const collectionSize: SweepPoint[] = [];
    for (const size of spec.collectionSizes) {
      if (size > records) await seed(app, size - records, plan);
      records = Math.max(records, size);
      collectionSize.push(await point(app, plan, records, Math.max(0, records - 100), 100, spec.storage));
    }
    return others.length === 0 ? { pageSize, collectionSize } : { pageSize, collectionSize, beside };
  } finally {
    await Promise.all([app, ...others.map(([, server]) => server)].map((server) => server.stop()));
    if (uri !== undefined) await dropDatabase(uri);
  }
}

async function point(app: ServerProcess, plan: Plan, records: number, skip: number, limit: number, storage: string): Promise<SweepPoint> {
  const base = { server: app, connections: plan.connections, headers: plan.headers, requests: listRequests(skip, limit) };
  if (plan.warmupSeconds > 0) await runLoad({ ...base, seconds: plan.warmupSeconds });
  const sample = await runLoad({ ...base, seconds: plan.roundSeconds });
  console.log(`${storage} list ${skip}/${limit} of ${records}: ${describe(sample)}`);
  return { records, skip, limit, sample };
}
