import { QUIET, settingsText } from './app.js';
import { type ScaleResult } from './at-scale.js';
import { type ChangesResult, type FeedStorage } from './change-feed.js';
import { type Comparison, type Summary } from './compare.js';
import { type ConditionalCost } from './conditional-cost.js';
import { type Sample } from './load.js';
import { type Machine } from './machine.js';
import { type ScenarioResult, type SqliteResult } from './scenarios.js';
import { type SoakResult } from './soak.js';
import { type Sweep } from './sweeps.js';
import { quotient, target, type Target } from './targets.js';
import { type WebhooksResult } from './webhooks.js';
import { OPERATIONS, type Operation } from './workloads.js';

/** Everything one run found; written as results.json. */
export interface Results {
  readonly meta: {
    readonly date: string;
    readonly mode: string;
    readonly rounds: number;
    readonly roundSeconds: number;
    readonly warmupSeconds: number;
    readonly connections: number;
    readonly seedRecords: number;
    readonly pinned: boolean;
    readonly machine: Machine;
    readonly tookSeconds: number;
  };
  readonly memory: ScenarioResult;
  /** The app on SQLite beside the app on the memory store; undefined with --no-sqlite. */
  readonly sqlite?: SqliteResult | undefined;
  /** Undefined when no MONGODB_URI was given, or the MongoDB part failed before it ended. */
  readonly mongodb: ScenarioResult | undefined;
  /** Why the MongoDB part is missing or incomplete. */
  readonly mongodbNote: string | undefined;
  readonly sweeps: { readonly memory: Sweep; readonly mongodb: Sweep | undefined };
  readonly soak: SoakResult;
  /** The share of the app's CPU that conditional requests take when none is sent (profiled). */
  readonly conditional: ConditionalCost;
  /** Finding records at scale (searches, sorts, cursors, counts, expensive reads beside cheap ones); undefined when skipped. */
  readonly scale?: { readonly memory: ScaleResult; readonly sqlite: ScaleResult | undefined } | undefined;
  /** What keeping every write as a change costs, and how fast the feed reads and wakes (issue 29). */
  readonly changes?: ChangesResult | undefined;
  /** How fast webhooks deliver, and what a receiver that hangs does to the API (issue 30). */
  readonly webhooks?: WebhooksResult | undefined;
  /** Every target, computed from the figures above by `checkTargets`. */
  readonly targets: readonly Target[];
}

/** What a run measured, before the targets are computed from it. */
export type Measured = Omit<Results, 'targets'>;

/** `contender`'s req/s (the app's by default) over the baseline's, for one operation; undefined where either is missing. */
export function ratio(comparison: Comparison | undefined, op: Operation, baseline: string, contender = 'app'): number | undefined {
  const app = comparison?.[op]?.[contender];
  const base = comparison?.[op]?.[baseline];
  return app === undefined || base === undefined ? undefined : app.reqPerSec / base.reqPerSec;
}

/** The sample of one page size of a sweep, for the app (`key` unset) or a server measured beside it. */
export function pageOf(sweep: Sweep | undefined, limit: number, key?: string): Sample | undefined {
  const points = key === undefined ? sweep?.pageSize : sweep?.beside?.[key];
  return points?.find((point) => point.limit === limit)?.sample;
}

/** The targets of issue 16 as issue 26 revised them, and the health checks every run keeps, each computed from this run's figures. */
export function checkTargets(results: Measured): Target[] {
  return [
    ...memoryTargets(results),
    ...conditionalTargets(results),
    ...sqliteTargets(results),
    ...mongoTargets(results),
    ...peerTargets(results),
    ...quietRows(results),
    ...beforeFindingRows(results),
    ...runtimeRows(results),
    ...plainListTargets(results),
    ...scaleTargets('memory', results.scale?.memory),
    ...scaleTargets('sqlite', results.scale?.sqlite),
    ...changesTargets(results.changes),
    ...webhooksTargets(results.webhooks),
    ...healthChecks(results),
  ];
}

const p99 = (comparison: Comparison | undefined, op: Operation, key: string): number | undefined => comparison?.[op]?.[key]?.p99Ms;
const perSecond = (sample: Sample | undefined): number | undefined => sample?.reqPerSec;

function memoryTargets(results: Measured): Target[] {
  const memory = results.memory.comparison;
  const sweep = results.sweeps.memory;
  const app1000 = pageOf(sweep, 1000);
  return [
    target('memory: find, app / (b) bare Express + Map', ratio(memory, 'find', 'b'), { atLeast: 0.85 }),
    target('memory: create, app / (b) bare Express POST parsing the same JSON', ratio(memory, 'create', 'b'), { atLeast: 0.75 }),
    target('memory: update, app / (b)', ratio(memory, 'update', 'b'), { atLeast: 0.75 }),
    target('memory: delete, app / (b)', ratio(memory, 'delete', 'b'), { atLeast: 0.85 }),
    target('memory: list of 100, app / (b)', ratio(memory, 'list', 'b'), { atLeast: 0.7 }),
    target('memory: list of 1000, app / (b)', quotient(perSecond(app1000), perSecond(pageOf(sweep, 1000, 'b'))), { atLeast: 0.7 }),
    target('memory: list of 1000, app p99 / its own p50', quotient(app1000?.p99Ms, app1000?.p50Ms), { atMost: 3 }),
    target(`memory: find p99 at ${results.meta.connections} connections, app / (b)`, quotient(p99(memory, 'find', 'app'), p99(memory, 'find', 'b')), { atMost: 1.5 }),
  ];
}

function conditionalTargets(results: Measured): Target[] {
  const { find, update } = results.conditional;
  return [
    target('conditional requests, none sent: share of the app\'s CPU under finds, %', find, { atMost: 3 }),
    target('conditional requests, none sent: share of the app\'s CPU under updates, %', update, { atMost: 3 }),
  ];
}

function sqliteTargets(results: Measured): Target[] {
  const sqlite = results.sqlite?.comparison;
  const sweep = results.sweeps.memory;
  const during = results.sqlite?.findsDuringCreates.normal.find.p99Ms;
  const duringOnMemory = results.sqlite?.findsDuringCreates.memory.find.p99Ms;
  return [
    target('sqlite: find, app / memory app', ratio(sqlite, 'find', 'memory'), { atLeast: 0.6 }),
    target('sqlite: create, app / memory app', ratio(sqlite, 'create', 'memory'), { atLeast: 0.6 }),
    target('sqlite: update, app / memory app', ratio(sqlite, 'update', 'memory'), 'report'),
    target('sqlite: delete, app / memory app', ratio(sqlite, 'delete', 'memory'), 'report'),
    target('sqlite: list of 100, app / memory app', ratio(sqlite, 'list', 'memory'), { atLeast: 0.6 }),
    target('sqlite: list of 1000, app / memory app', quotient(perSecond(pageOf(sweep, 1000, 'sqlite')), perSecond(pageOf(sweep, 1000))), 'report'),
    target('sqlite: find p99, app / memory app', quotient(p99(sqlite, 'find', 'app'), p99(sqlite, 'find', 'memory')), 'report'),
    target('sqlite: find p99 while creates run (2000 finds/s beside 1000 creates/s), ms', during, { atMost: 5 }),
    target('sqlite: find p99 while creates run, the same load on the memory store, ms', duringOnMemory, 'report'),
    target('sqlite: find p99 of the same finds with no creates, ms', results.sqlite?.findsAlone.p99Ms, 'report'),
  ];
}

function scaleSamples(scale: ScaleResult): Sample[] {
  const counts = Object.values(scale.counted).flatMap((pair) => [pair.with, pair.without]);
  const beside = Object.values(scale.beside).flatMap((b) => [b.find, b.live, b.load]);
  return [scale.search.rare, scale.search.common, ...Object.values(scale.firstPages), scale.deepPage.first, scale.deepPage.deep, ...counts, ...beside];
}

/**
 * A plain list (no search, no sort) against the app before records could be searched and
 * sorted, in the same rounds, so the finding features cost plain lists nothing.
 */
function plainListTargets(results: Measured): Target[] {
  const { comparison, listBefore } = results.memory;
  return [target(`memory: list of 100, app / the app before search and sort (${listBefore ?? 'BENCH_BEFORE_FINDING_APP unset'})`, ratio(comparison, 'list', 'listBefore'), { atLeast: 0.95 })];
}

/** Issue 28's targets for one storage, at `records` records per resource. */
function scaleTargets(storage: string, scale: ScaleResult | undefined): Target[] {
  if (scale === undefined) return [];
  const at = `${storage} at ${scale.records.toLocaleString('en')} records`;
  const slowest = (samples: readonly Sample[], which: 'p50Ms' | 'p99Ms'): number => Math.max(...samples.map((sample) => sample[which]));
  const { plain, sorted } = scale.counted;
  const countCost = Math.max(plain.with.p50Ms / plain.without.p50Ms, sorted.with.p50Ms / sorted.without.p50Ms);
  const beside = Object.values(scale.beside);
  return [
    target(`${at}: a search (q), p50, ms (the slower of a rare and a common match)`, slowest([scale.search.rare, scale.search.common], 'p50Ms'), { atMost: 25 }),
    target(`${at}: the first page of 100 of any sort, p50, ms (the slowest sort)`, slowest(Object.values(scale.firstPages), 'p50Ms'), { atMost: 10 }),
    target(`${at}: the page at depth ${scale.deepPage.depth.toLocaleString('en')} through next / the first page, p50`, quotient(scale.deepPage.deep.p50Ms, scale.deepPage.first.p50Ms), { atMost: 1.5 }),
    target(`${at}: a page with count=true / without, p50 (the larger of the plain and the sorted list)`, countCost, { atMost: 1.2 }),
    target(`${at}: find p99 beside 16 connections of deep pages or searches, ms (the worse)`, slowest(beside.map((b) => b.find), 'p99Ms'), { below: 20 }),
    target(`${at}: /health/live p99 beside 16 connections of deep pages or searches, ms (the worse)`, slowest(beside.map((b) => b.live), 'p99Ms'), { below: 20 }),
  ];
}

function mongoTargets(results: Measured): Target[] {
  const mongo = results.mongodb?.comparison;
  return [
    // Below this the server, not the app, sets every pace, and the ratios to (c) say nothing.
    target('mongodb: (c) findOne req/s, the server fast enough to measure the app on', mongo?.find?.c?.reqPerSec, { atLeast: 1000 }),
    target('mongodb: find, app / (c) bare Express + driver findOne', ratio(mongo, 'find', 'c'), { atLeast: 0.85 }),
    target('mongodb: list of 100, app / (c) the same list done bare with the driver', ratio(mongo, 'list', 'c'), { atLeast: 0.8 }),
  ];
}

function peerTargets(results: Measured): Target[] {
  const memory = results.memory.comparison;
  return [
    target('peers: find, app / (d) NestJS on Express', ratio(memory, 'find', 'd'), { atLeast: 1.3 }),
    target('peers: list of 100, app / (d) NestJS on Express', ratio(memory, 'list', 'd'), { atLeast: 1.3 }),
    target('peers: find, app / (e) NestJS on Fastify', ratio(memory, 'find', 'e'), 'report'),
    target('peers: list of 100, app / (e) NestJS on Fastify', ratio(memory, 'list', 'e'), 'report'),
  ];
}

/** The memory server `key` over (b), one report row per operation, named `server`. */
function rowsAgainstB(results: Measured, key: string, server: string): Target[] {
  return OPERATIONS.map((op) => target(`memory: ${op}, ${server} / (b)`, ratio(results.memory.comparison, op, 'b', key), 'report'));
}

/** The app with neither request log nor metrics over (b), per operation: how much of the gap to (b) observing each request is. */
function quietRows(results: Measured): Target[] {
  return rowsAgainstB(results, 'quiet', `app with ${settingsText(QUIET)}`);
}

/**
 * The app before search and sort over (b), per operation. The memory targets were set
 * from a run of that build (docs/benchmarks/README.md): where it misses them too, the
 * machine has moved (b) away from any app, not only from this one.
 */
function beforeFindingRows(results: Measured): Target[] {
  const { listBefore } = results.memory;
  return listBefore === undefined ? [] : rowsAgainstB(results, 'listBefore', `the app before search and sort (${listBefore})`);
}

/** The app on the second runtime over the app on the bench's own, per operation: above 1, the second is faster. */
function runtimeRows(results: Measured): Target[] {
  const runtime = results.memory.runtime;
  if (runtime === undefined) return [];
  return OPERATIONS.map((op) =>
    target(`runtime: ${op}, app on Node ${runtime.other} / on Node ${runtime.own}`, ratio(results.memory.comparison, op, 'app', 'runtime'), 'report'),
  );
}

/**
 * Every load the run measured but the soak (which has a row of its own): each round of the
 * comparisons, the paced finds and creates, and each point of the sweeps.
 */
function everyRun(results: Measured): Sample[] {
  const comparisons = [results.memory, results.sqlite, results.mongodb].flatMap((scenario) =>
    Object.values(scenario?.comparison ?? {}).flatMap((byServer): Summary[] => Object.values(byServer)),
  );
  const sqlite = results.sqlite;
  const paced = sqlite === undefined ? [] : [...Object.values(sqlite.findsDuringCreates).flatMap(({ find, create }) => [find, create]), sqlite.findsAlone];
  const sweeps = [results.sweeps.memory, results.sweeps.mongodb].flatMap((sweep) =>
    sweep === undefined ? [] : [sweep.pageSize, sweep.collectionSize, ...Object.values(sweep.beside ?? {})].flat(),
  );
  const scale = [results.scale?.memory, results.scale?.sqlite].flatMap((found) => (found === undefined ? [] : scaleSamples(found)));
  const recording = [results.changes?.recording?.memory, results.changes?.recording?.sqlite].flatMap((comparison) =>
    Object.values(comparison ?? {}).flatMap((byServer): Summary[] => Object.values(byServer)),
  );
  return [...[...comparisons, ...paced, ...recording].flatMap((summary) => summary.rounds), ...sweeps.map((point) => point.sample), ...scale];
}

function healthChecks(results: Measured): Target[] {
  const memory = results.memory.comparison;
  const appRuns = Object.values(memory).flatMap((byServer) => (byServer.app === undefined ? [] : [byServer.app]));
  const runs = everyRun(results);
  // No scenario expects a non-2xx: no find or update of a missing id, no value sent twice,
  // and a database too slow for the app's timeout is a scenario set too large for it.
  const failures = runs.reduce((sum, s) => sum + s.non2xx + s.errors, 0);
  const silent = runs.filter((sample) => sample.requests === 0).length;
  // The RSS bound is the find run's and the soak's: the create runs keep every record they
  // make in the memory store, so their peak measures the data set.
  const findRss = memory.find?.app?.peakRssMb;
  const soakRss = results.soak.sample.peakRssMb;
  const peakRss = Math.max(...appRuns.map((s) => s.peakRssMb ?? 0));
  return [
    target('memory: app RSS in the find run and the soak, MB', findRss === undefined && soakRss === undefined ? undefined : Math.max(findRss ?? 0, soakRss ?? 0), { below: 150 }),
    target('memory: app RSS in any run (the create runs hold every record made), MB', appRuns.length === 0 ? undefined : peakRss, 'report'),
    target('soak: live heap growth, after a full collection at each end, MB', results.soak.liveHeapEndMb - results.soak.liveHeapStartMb, { below: 10 }),
    target('soak: RSS growth, last 10 s less first 10 s (moves with the collector), MB', results.soak.rssGrowthMb, 'report'),
    target('soak: non-2xx and errors', results.soak.sample.non2xx + results.soak.sample.errors, { atMost: 0 }),
    target('every run and sweep: non-2xx and errors (none is expected: no 404s, no 409s, no timeouts)', failures, { atMost: 0 }),
    target('every run and sweep: runs that got no answer', silent, { atMost: 0 }),
  ];
}

/** Issue 29's targets: recording costs writes at most 20%, the feed reads fast, a long poll wakes at once. */
export function changesTargets(changes: ChangesResult | undefined): Target[] {
  if (changes === undefined) return [];
  const storages: FeedStorage[] = ['memory', 'sqlite'];
  return storages.flatMap((storage) => {
    const recorded = changes.recording?.[storage];
    const read = changes.read[storage];
    const wake = changes.wake[storage];
    if (read === undefined && wake === undefined) return [];
    return [
      ...(['create', 'update', 'delete'] as const).map((op) =>
        target(`${storage}: ${op} keeping its change, app / the app before changes were kept`, ratio(recorded, op, 'before'), { atLeast: 0.8 }),
      ),
      target(`${storage}: the changes feed read in pages of 1000, changes/s`, read?.perSecond, { atLeast: 20_000 }),
      target(`${storage}: a long poll answered after a write, from the write's request, p99, ms`, wake?.p99Ms, { atMost: 50 }),
    ];
  });
}

/** Issue 30's targets: a change delivered within a second at 200 a second, a backlog drained at 2,000 a second, and finds no slower beside a receiver that hangs. */
function webhooksTargets(webhooks: WebhooksResult | undefined): Target[] {
  if (webhooks === undefined) return [];
  const storages: FeedStorage[] = ['memory', 'sqlite'];
  const { isolation } = webhooks;
  return [
    ...storages.flatMap((storage) => {
      const latency = webhooks.latency[storage];
      const drain = webhooks.drain[storage];
      if (latency === undefined && drain === undefined) return [];
      return [
        target(`${storage}: a webhook delivered at ${latency?.perSecond ?? 200} changes/s, from the write's request, p99, ms`, latency?.p99Ms, { atMost: 1000 }),
        target(`${storage}: a webhook backlog of ${drain?.changes ?? 0} changes drained, changes/s`, drain?.perSecond, { atLeast: 2000 }),
      ];
    }),
    target('memory: find p99 beside a webhook receiver that never answers, / without webhooks', quotient(p99(isolation, 'find', 'hanging'), p99(isolation, 'find', 'without')), { atMost: 1.1 }),
  ];
}
