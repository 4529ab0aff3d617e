import { join } from 'node:path';
import { BENCH_KEY, servesMetrics, startApp } from './app.js';
import { compare, describe, seed, summarize, type Comparison, type Contender, type Plan, type Summary } from './compare.js';
import { type Sample } from './load.js';
import { runPacedApart, type PacedLoad } from './paced-generator.js';
import { baselineScript, peerScript, startServer, type ServerProcess } from './processes.js';
import { OPERATIONS, type Operation } from './workloads.js';

/** What the throughput scenario found, and whether the app served metrics while it ran. */
export interface ThroughputResult {
  /** `a` bare node:http, `d` NestJS on Express, `e` NestJS on Fastify, `app` the app on the memory store, `sqlite` on SQLite. */
  readonly comparison: Comparison;
  readonly appMetrics: boolean;
  /** Paced finds on the SQLite app while paced creates run beside them (`FINDS_BESIDE_CREATES`). */
  readonly findsBesideCreates: { readonly find: Summary; readonly create: Summary };
}

export function planOf(options: { rounds: number; roundSeconds: number; warmupSeconds: number; connections: number }): Plan {
  return { ...options, headers: { key: BENCH_KEY } };
}

/** Finds and creates a second in the reads-beside-writes measure: a steady load, not a saturating one. */
export const FINDS_BESIDE_CREATES = { findsPerSecond: 2000, createsPerSecond: 1000, connections: 10 } as const;

/** What bare node:http is measured on: the CPU a request of the two reads costs with nothing else done. */
const BARE_OPERATIONS: readonly Operation[] = ['find', 'list'];

/** What the SQLite app is measured on against the memory one; delete goes with create, so each round ends on the records it started with. */
const SQLITE_OPERATIONS: readonly Operation[] = ['find', 'list', 'create', 'delete'];

/**
 * The app on the memory store and on SQLite, the peers (d) NestJS on Express and (e)
 * NestJS on Fastify, and (a) bare node:http, taken in turn in the same rounds, so every
 * ratio is of one run; then finds on the SQLite app beside creates, paced.
 */
export async function throughputScenario(plan: Plan, seedRecords: number, dir: string, pinned: boolean): Promise<ThroughputResult> {
  const servers: ServerProcess[] = [];
  const started = async (starting: Promise<ServerProcess>): Promise<ServerProcess> => {
    const server = await starting;
    servers.push(server);
    return server;
  };
  try {
    const a = await started(startServer({ name: '(a) node-http', script: baselineScript('node-http'), env: { ...process.env }, ready: { stdoutLine: 'listening' } }, pinned));
    const app = await started(startApp({ storage: 'memory' }, pinned));
    const sqlite = await started(startApp({ storage: 'sqlite', sqlitePath: join(dir, 'throughput.db') }, pinned));
    const d = await started(startPeer('nest-express', 'd', pinned));
    const e = await started(startPeer('nest-fastify', 'e', pinned));
    const appIds = await seed(app, seedRecords, plan);
    const sqliteIds = await seed(sqlite, seedRecords, plan);
    const contenders: Contender[] = [
      { key: 'a', server: a, operations: BARE_OPERATIONS, ids: appIds },
      { key: 'd', server: d, operations: OPERATIONS, ids: await seed(d, seedRecords, plan) },
      { key: 'e', server: e, operations: OPERATIONS, ids: await seed(e, seedRecords, plan) },
      { key: 'app', server: app, operations: OPERATIONS, ids: appIds },
      { key: 'sqlite', server: sqlite, operations: SQLITE_OPERATIONS, ids: sqliteIds },
    ];
    const comparison = await compare(contenders, plan, 'throughput');
    const findsBesideCreates = await pacedFindsBesideCreates(sqlite, sqliteIds, plan);
    return { comparison, appMetrics: await servesMetrics(app), findsBesideCreates };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/**
 * Finds at a steady rate while creates run at a steady rate beside them, each request sent
 * when due, from the bench's generator process (`runPacedApart`). Below saturation, a
 * find's p99 is how long it waited behind a write or behind the machine, not how long it
 * queued behind other requests. `plan.rounds` rounds, and the medians: one round's p99
 * turns on whether the disk stalled once in it (docs/benchmarks/README.md).
 */
async function pacedFindsBesideCreates(server: ServerProcess, ids: readonly string[], plan: Plan): Promise<{ find: Summary; create: Summary }> {
  const { findsPerSecond, createsPerSecond, connections } = FINDS_BESIDE_CREATES;
  const loads: PacedLoad[] = [
    { perSecond: findsPerSecond, connections, requests: { kind: 'find', ids } },
    { perSecond: createsPerSecond, connections, requests: { kind: 'create' } },
  ];
  const finds: Sample[] = [];
  const creates: Sample[] = [];
  for (let round = 1; round <= plan.rounds; round += 1) {
    const [find, create] = await runPacedApart({ server, seconds: plan.roundSeconds, headers: plan.headers, loads });
    if (find === undefined || create === undefined) throw new Error('the paced generator answered fewer samples than loads');
    console.log(`sqlite round ${round}/${plan.rounds}: paced finds: ${describe(find)}; creates: ${describe(create)}`);
    finds.push(find);
    creates.push(create);
  }
  return { find: summarize(finds), create: summarize(creates) };
}

/**
 * Starts one of `peers/`, the NestJS apps a team would write instead, with the app's key.
 * Ready when its health path answers: its stdout, its request log, goes to /dev/null as the app's does.
 */
function startPeer(script: string, key: string, pinned: boolean): Promise<ServerProcess> {
  const env = { ...process.env, API_KEYS: BENCH_KEY };
  return startServer({ name: `(${key}) ${script}`, script: peerScript(script), env, ready: { path: '/health/live' } }, pinned);
}
