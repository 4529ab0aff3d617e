import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { BENCH_KEY, buildNameOf, QUIET, servesMetrics, startApp, withDatabase, type AppSpec } from './app.js';
import { compare, describe, seed, summarize, turnOrder, type Comparison, type Contender, type Plan, type Summary } from './compare.js';
import { type Sample } from './load.js';
import { runPacedApart, type PacedLoad } from './paced-generator.js';
import { baselineScript, peerScript, startServer, type ServerProcess } from './processes.js';
import { type OtherNode } from './runtime.js';
import { OPERATIONS } from './workloads.js';

/** What one storage's comparison found, and whether the app served metrics while it ran. */
export interface ScenarioResult {
  readonly comparison: Comparison;
  readonly appMetrics: boolean;
  /** What the MongoDB server was, for the MongoDB scenario. */
  readonly server?: string | undefined;
  /** The Node versions of `app` and of `runtime` (the same app on another Node), when that ran. */
  readonly runtime?: { readonly own: string; readonly other: string } | undefined;
  /** The build `listBefore` ran (`buildNameOf`): the app before records could be searched and sorted. */
  readonly listBefore?: string | undefined;
}

export function planOf(options: { rounds: number; roundSeconds: number; warmupSeconds: number; connections: number }): Plan {
  return { ...options, headers: { key: BENCH_KEY } };
}

/** What else the memory scenario runs the app beside. */
export interface MemoryBeside {
  /** The same app on another Node (`runtime`). */
  readonly other?: OtherNode | undefined;
  /** The main.js of the app built before records could be searched and sorted (`listBefore`). */
  readonly beforeFinding?: string | undefined;
}

/**
 * The app on the memory store against (a) bare node:http, (b) bare Express with a Map, the
 * peers (d) NestJS on Express and (e) NestJS on Fastify, the same app with neither request
 * log nor metrics (`quiet`), and, as `beside` asks, the same app on another Node (`runtime`)
 * and the plain list of the app before records could be searched and sorted (`listBefore`):
 * taken in turn in the same rounds, so the ratios are of one run.
 */
export async function memoryScenario(plan: Plan, seedRecords: number, pinned: boolean, beside: MemoryBeside = {}): Promise<ScenarioResult> {
  const { other, beforeFinding } = beside;
  const servers: ServerProcess[] = [];
  try {
    const a = await startBaseline('node-http', 'a', pinned, servers);
    const app = await startApp({ storage: 'memory' }, pinned);
    servers.push(app);
    const appIds = await seed(app, seedRecords, plan);
    const seeded = async (key: string, server: ServerProcess): Promise<Contender> => {
      servers.push(server);
      return { key, server, operations: OPERATIONS, ids: await seed(server, seedRecords, plan) };
    };
    const contenders: Contender[] = [
      { key: 'a', server: a, operations: OPERATIONS, ids: appIds },
      await seeded('b', await startBaseline('express-map', 'b', pinned)),
      await seeded('d', await startPeer('nest-express', 'd', pinned)),
      await seeded('e', await startPeer('nest-fastify', 'e', pinned)),
      { key: 'app', server: app, operations: OPERATIONS, ids: appIds },
      await seeded('quiet', await startApp({ storage: 'memory', settings: QUIET }, pinned)),
    ];
    if (other !== undefined) contenders.push(await seeded('runtime', await startApp({ storage: 'memory', node: other }, pinned)));
    // Every operation, as the app: its lists then come after the same finds and updates, on a heap through the same history.
    if (beforeFinding !== undefined) contenders.push(await seeded('listBefore', await startApp({ storage: 'memory', script: beforeFinding }, pinned)));
    const runtime = other === undefined ? undefined : { own: process.versions.node, other: other.version };
    const listBefore = beforeFinding === undefined ? undefined : buildNameOf(beforeFinding);
    return { comparison: await compare(contenders, plan, 'memory'), appMetrics: await servesMetrics(app), runtime, listBefore };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/** What the SQLite comparison found: each operation, and finds measured while creates run. */
export interface SqliteResult extends ScenarioResult {
  /**
   * Finds on the SQLite app while creates run beside them, both paced, per synchronous mode;
   * and the same load on the memory store, for what the load itself costs a find.
   */
  readonly findsDuringCreates: Readonly<Record<'memory' | 'normal' | 'full', { readonly find: Summary; readonly create: Summary }>>;
  /** The same paced finds on the SQLite app (`normal`) with no create beside them: what the machine alone gives. */
  readonly findsAlone: Summary;
}

/**
 * The app on SQLite, synchronous `normal` (`app`) and `full` (`full`), against the same
 * app on the memory store (`memory`), each on a file of its own in `dir`.
 */
export async function sqliteScenario(plan: Plan, seedRecords: number, dir: string, pinned: boolean): Promise<SqliteResult> {
  const servers: ServerProcess[] = [];
  const contender = async (key: string, spec: AppSpec): Promise<Contender> => {
    const server = await startApp(spec, pinned);
    servers.push(server);
    return { key, server, operations: OPERATIONS, ids: await seed(server, seedRecords, plan) };
  };
  try {
    const memory = await contender('memory', { storage: 'memory' });
    const normal = await contender('app', { storage: 'sqlite', sqlite: { path: join(dir, 'normal.db'), synchronous: 'normal' } });
    const full = await contender('full', { storage: 'sqlite', sqlite: { path: join(dir, 'full.db'), synchronous: 'full' } });
    const comparison = await compare([memory, normal, full], plan, 'sqlite');
    const { createsPerSecond } = DURING_CREATES;
    const paced = await pacedFindsOn(
      {
        memory: { contender: memory, createsPerSecond },
        normal: { contender: normal, createsPerSecond },
        full: { contender: full, createsPerSecond },
        alone: { contender: normal, createsPerSecond: 0 },
      },
      plan,
    );
    const findsDuringCreates = { memory: withCreates(paced.memory), normal: withCreates(paced.normal), full: withCreates(paced.full) };
    return { comparison, appMetrics: await servesMetrics(normal.server), findsDuringCreates, findsAlone: paced.alone.find };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/** Paced finds, and the paced creates beside them when there were any. */
interface PacedFinds {
  readonly find: Summary;
  readonly create: Summary | undefined;
}

/** A load that ran creates beside its finds, typed so. */
function withCreates(paced: PacedFinds): { find: Summary; create: Summary } {
  if (paced.create === undefined) throw new Error('paced finds ran without the creates they were to run beside');
  return { find: paced.find, create: paced.create };
}

/** Finds and creates a second in the reads-during-writes measure: a steady load, not a saturating one. */
export const DURING_CREATES = { findsPerSecond: 2000, createsPerSecond: 1000, connections: 10 } as const;

/**
 * Finds at a steady rate while creates run at a steady rate beside them (none when
 * `createsPerSecond` is 0), each request sent when due, from the bench's generator process
 * (`runPacedApart`). Below saturation, a find's p99 is how long it waited behind a write
 * (node:sqlite is synchronous; the storage's writes run in a thread of their own, so a
 * commit and its checkpoint should not hold the finds up) or behind the machine, not how
 * long it queued behind other requests. Like the other measures, `plan.rounds` rounds,
 * each taking the loads in turn one further along, and the medians: one round's p99 turns
 * on whether the disk stalled once in it (README, "How it measures").
 */
async function pacedFindsOn<K extends string>(
  loads: Readonly<Record<K, { readonly contender: Contender; readonly createsPerSecond: number }>>,
  plan: Plan,
): Promise<Record<K, PacedFinds>> {
  const keys = Object.keys(loads) as K[];
  const rounds = new Map(keys.map((key) => [key, [] as { find: Sample; create: Sample | undefined }[]]));
  for (let round = 1; round <= plan.rounds; round += 1) {
    for (const key of turnOrder(keys, round)) {
      const { contender, createsPerSecond } = loads[key];
      const measured = await pacedFinds(contender, createsPerSecond, plan);
      const creates = measured.create === undefined ? 'no creates' : `creates: ${describe(measured.create)}`;
      console.log(`sqlite ${key} round ${round}/${plan.rounds}: paced finds: ${describe(measured.find)}; ${creates}`);
      rounds.get(key)?.push(measured);
    }
  }
  const summaries = [...rounds].map(([key, measured]) => {
    const creates = measured.flatMap((m) => (m.create === undefined ? [] : [m.create]));
    const summary: PacedFinds = { find: summarize(measured.map((m) => m.find)), create: creates.length === 0 ? undefined : summarize(creates) };
    return [key, summary] as const;
  });
  return Object.fromEntries(summaries) as Record<K, PacedFinds>;
}

async function pacedFinds(contender: Contender, createsPerSecond: number, plan: Plan): Promise<{ find: Sample; create: Sample | undefined }> {
  const { findsPerSecond, connections } = DURING_CREATES;
  const loads: PacedLoad[] = [{ perSecond: findsPerSecond, connections, requests: { kind: 'find', ids: contender.ids } }];
  if (createsPerSecond > 0) loads.push({ perSecond: createsPerSecond, connections, requests: { kind: 'create' } });
  const [find, create] = await runPacedApart({ server: contender.server, seconds: plan.roundSeconds, headers: plan.headers, loads });
  if (find === undefined) throw new Error('the paced generator answered no sample for the finds');
  return { find, create };
}

/**
 * How the lists run on MongoDB, the list of 100 beside (c) and the sweep: on few
 * connections and the smallest collection. FerretDB 1.24 never pushes a sort down, so each
 * page is the whole collection fetched, decoded and sorted in FerretDB; at the bench's
 * connections, or on the larger collections, lists waited past the app's MongoDB timeout
 * and were answered 503 (docs/benchmarks/README.md). A real MongoDB serves the page from
 * the `(createdAt, _id)` index and would take more; FerretDB is what the bench starts.
 */
export const MONGODB_LISTS = { connections: 4, collectionSizes: [1000] } as const;

/** The plan of the MongoDB lists: the same rounds, on `MONGODB_LISTS.connections`. */
export function mongoListPlan(plan: Plan): Plan {
  return { ...plan, connections: MONGODB_LISTS.connections };
}

/** The app on MongoDB against (c) bare Express routes doing the same findOne and list with the driver. */
export async function mongoScenario(plan: Plan, seedRecords: number, mongodbUri: string, pinned: boolean): Promise<ScenarioResult> {
  const uri = withDatabase(mongodbUri, `workplan_bench_${Date.now()}`);
  const servers: ServerProcess[] = [];
  try {
    const app = await startApp({ storage: 'mongodb', mongodbUri: uri }, pinned);
    servers.push(app);
    const ids = await seed(app, seedRecords, plan);
    const c = await startServer(
      { name: '(c) express + mongodb', script: baselineScript('express-mongo'), env: { ...process.env, MONGODB_URI: uri }, ready: { stdoutLine: 'listening' } },
      pinned,
    );
    servers.push(c);
    const contenders = (lists: boolean): Contender[] => [
      { key: 'c', server: c, operations: lists ? ['list'] : ['find'], ids },
      { key: 'app', server: app, operations: OPERATIONS.filter((op) => (op === 'list') === lists), ids },
    ];
    const server = await serverName(uri);
    console.log(`mongodb server: ${server}`);
    // Lists first, on the seeded records alone: FerretDB sorts each page over the whole
    // collection, and the create runs leave behind every record their slower deletes did
    // not reach, tens of thousands, over which a page takes longer than the app's timeout.
    const lists = await compare(contenders(true), mongoListPlan(plan), 'mongodb');
    const comparison = { ...(await compare(contenders(false), plan, 'mongodb')), ...lists };
    return { comparison, appMetrics: await servesMetrics(app), server };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await dropDatabase(uri);
  }
}

/** Starts one of `baselines/`, adding it to `servers` so the caller stops it. */
export async function startBaseline(script: string, key: string, pinned: boolean, servers: ServerProcess[] = []): Promise<ServerProcess> {
  const server = await startServer(
    { name: `(${key}) ${script}`, script: baselineScript(script), env: { ...process.env }, ready: { stdoutLine: 'listening' } },
    pinned,
  );
  servers.push(server);
  return server;
}

/** Starts one of `peers/`, the NestJS apps a team would write instead. */
async function startPeer(script: string, key: string, pinned: boolean): Promise<ServerProcess> {
  return startServer({ name: `(${key}) ${script}`, script: peerScript(script), env: { ...process.env }, ready: { stdoutLine: 'listening' } }, pinned);
}

/**
 * What answers on `uri`, for the results: BENCH_MONGODB_SERVER when the script that started
 * it says (scripts/bench-db.sh), else what the server's buildInfo tells.
 */
async function serverName(uri: string): Promise<string> {
  const given = process.env.BENCH_MONGODB_SERVER?.trim();
  if (given !== undefined && given !== '') return given;
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    const info = await client.db().admin().command({ buildInfo: 1 });
    const ferret: unknown = info.ferretdbVersion;
    return typeof ferret === 'string' ? `FerretDB ${ferret} (MongoDB ${String(info.version)} wire)` : `MongoDB ${String(info.version)}`;
  } catch {
    return 'unknown (buildInfo failed)';
  } finally {
    await client.close();
  }
}

/** Drops the bench's own database, so runs leave nothing behind. */
export async function dropDatabase(uri: string): Promise<void> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.db().dropDatabase();
  } catch (error) {
    console.warn(`could not drop the bench database: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await client.close();
  }
}
