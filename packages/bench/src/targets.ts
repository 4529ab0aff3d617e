import { type ScaleResult } from './at-scale.js';
import { cpuUsPerRequest, type Comparison, type Summary } from './compare.js';
import { type FollowersResult } from './followers.js';
import { type HistoryResult } from './history.js';
import { type Sample } from './load.js';
import { ratio, type Measured } from './results.js';
import { FINDS_BESIDE_CREATES } from './scenarios.js';
import { type Operation } from './workloads.js';

/** One target of the run: what was measured, the bound it must meet, and whether it did. */
export interface Target {
  readonly name: string;
  /** The measured figure (a ratio, or ms, MB, a count as the name says); null when that part did not run. */
  readonly measured: number | null;
  /** The bound as text, such as ">= 0.85"; null for a figure that is only reported. */
  readonly threshold: string | null;
  /** Computed from `measured` and the bound; null when not run or only reported. */
  readonly met: boolean | null;
}

/** How a measured figure is judged: a bound, or none (a row that only reports). */
export type Bound =
  | { readonly atLeast: number }
  | { readonly atMost: number }
  | { readonly below: number }
  | 'report';

/** A target from a figure that may be missing; `met` follows from the figure and the bound alone. */
export function target(name: string, measured: number | undefined, bound: Bound): Target {
  const value = measured === undefined || !Number.isFinite(measured) ? null : measured;
  if (bound === 'report') return { name, measured: value, threshold: null, met: null };
  const [threshold, meets] =
    'atLeast' in bound
      ? [`>= ${bound.atLeast}`, (v: number) => v >= bound.atLeast]
      : 'atMost' in bound
        ? [`<= ${bound.atMost}`, (v: number) => v <= bound.atMost]
        : [`< ${bound.below}`, (v: number) => v < bound.below];
  return { name, measured: value, threshold, met: value === null ? null : meets(value) };
}

/** `top / bottom`, undefined when either is missing or the bottom is zero. */
function quotient(top: number | undefined, bottom: number | undefined): number | undefined {
  return top === undefined || bottom === undefined || bottom === 0 ? undefined : top / bottom;
}

/**
 * Every target of issue 49's table, each computed from this run's figures: the one place
 * where a target's bound is set. Rows with no bound report a figure the table asks for.
 */
export function checkTargets(results: Measured): Target[] {
  return [
    ...peerTargets(results),
    ...cpuRows(results),
    ...sqliteTargets(results),
    ...scaleTargets(results.scale),
    ...changesTargets(results),
    ...followersTargets(results.followers),
    ...historyTargets(results.history),
    ...soakTargets(results),
  ];
}

const p99 = (comparison: Comparison | undefined, op: Operation, key: string): number | undefined => comparison?.[op]?.[key]?.p99Ms;

/** The operations the app on the memory store is held to against the peers. */
const PEER_OPERATIONS = [['find', 'find'], ['list', 'list of 100'], ['create', 'create'], ['update', 'update']] as const;

function peerTargets(results: Measured): Target[] {
  const { comparison } = results.throughput;
  return [
    ...PEER_OPERATIONS.map(([op, name]) => target(`peers: ${name}, app on memory / (d) NestJS on Express`, ratio(comparison, op, 'd', 'app'), { atLeast: 1 })),
    ...PEER_OPERATIONS.map(([op, name]) => target(`peers: ${name}, app on memory / (e) NestJS on Fastify`, ratio(comparison, op, 'e', 'app'), 'report')),
  ];
}

/** The server's CPU time a request, for the two reads, of the app on each store and of bare node:http. */
function cpuRows(results: Measured): Target[] {
  const { comparison } = results.throughput;
  const servers = [['app', 'app on memory'], ['sqlite', 'app on SQLite'], ['a', '(a) bare node:http']] as const;
  return (['find', 'list'] as const).flatMap((op) =>
    servers.map(([key, name]) => target(`cpu: ${op === 'list' ? 'list of 100' : op}, ${name}, µs a request`, comparison[op]?.[key]?.cpuUsPerRequest, 'report')),
  );
}

function sqliteTargets(results: Measured): Target[] {
  const { comparison, findsBesideCreates } = results.throughput;
  const { findsPerSecond, createsPerSecond } = FINDS_BESIDE_CREATES;
  return [
    target('sqlite: find, app on SQLite / on memory', ratio(comparison, 'find', 'app', 'sqlite'), { atLeast: 0.6 }),
    target('sqlite: list of 100, app on SQLite / on memory', ratio(comparison, 'list', 'app', 'sqlite'), { atLeast: 0.6 }),
    target('sqlite: create, app on SQLite / on memory', ratio(comparison, 'create', 'app', 'sqlite'), { atLeast: 0.6 }),
    target(`sqlite: find p99 with ${findsPerSecond} finds/s beside ${createsPerSecond} creates/s, ms`, findsBesideCreates.find.p99Ms, { atMost: 10 }),
  ];
}

/** Issue 28's six targets, on SQLite at `records` records per resource. */
function scaleTargets(scale: ScaleResult | undefined): Target[] {
  if (scale === undefined) return [];
  const at = `sqlite at ${scale.records.toLocaleString('en')} records`;
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

/** Issues 29 and 30 on SQLite: the feed reads fast, a long poll wakes at once, webhooks deliver and drain, a hanging receiver slows no find. */
function changesTargets(results: Measured): Target[] {
  const { read, wake } = results.changes;
  const { latency, drain, isolation } = results.webhooks;
  return [
    target('sqlite: the changes feed read in pages of 1000, changes/s', read.perSecond, { atLeast: 20_000 }),
    target('sqlite: a long poll answered after a write, from the write\'s request, p99, ms', wake.p99Ms, { atMost: 50 }),
    target(`sqlite: a webhook delivered at ${latency.perSecond} changes/s, from the write's request, p99, ms`, latency.p99Ms, { atMost: 1000 }),
    target(`sqlite: a webhook backlog of ${drain.changes.toLocaleString('en')} changes drained, changes/s`, drain.perSecond, { atLeast: 2000 }),
    target('sqlite: find p99 beside a webhook receiver that never answers / without webhooks', quotient(p99(isolation, 'find', 'hanging'), p99(isolation, 'find', 'without')), { atMost: 1.1 }),
  ];
}

/**
 * What a held follower may cost in memory (RSS delta / followers held), KB: twice what a bare
 * node:http server holding a response open costs (docs/benchmarks/README.md says how much),
 * room for the app's own state of a request (Express's, its context, the follower's wait).
 */
export const FOLLOWER_MEMORY_KB = 35;

/** Issue 50, point 2, on SQLite: a write costs about the same with followers held as with none, and each gets every change. */
export function followersTargets(followers: FollowersResult): Target[] {
  const { streams, polls, creates, noneMs, streamsMs, bothMs } = followers;
  const held = `${streams.toLocaleString('en')} event streams`;
  const withPolls = `${held} and ${polls.toLocaleString('en')} long polls`;
  const perFollowerKb = ((followers.rssBothMb - followers.rssNoneMb) * 1024) / (streams + polls);
  return [
    target(`sqlite: ${creates} sequential creates with ${held} held / with none`, quotient(streamsMs, noneMs), { atMost: 4 }),
    target(`sqlite: the time a change adds per held event stream, µs`, ((streamsMs - noneMs) * 1000) / creates / streams, 'report'),
    target(`(a) bare node:http: the time a change adds per held event stream, µs`, ((followers.bare.streamsMs - followers.bare.noneMs) * 1000) / creates / streams, 'report'),
    target(`sqlite: ${creates} sequential creates with ${withPolls} held / with none`, quotient(bothMs, noneMs), 'report'),
    target(`sqlite: followers held (${withPolls}) that missed a change`, followers.missed, { atMost: 0 }),
    target(`sqlite: memory a held follower costs (RSS delta / followers, ${withPolls}), KB`, perFollowerKb, { atMost: FOLLOWER_MEMORY_KB }),
    target(`(a) bare node:http: memory a held event stream costs (RSS delta / streams), KB`, ((followers.bare.rssStreamsMb - followers.bare.rssNoneMb) * 1024) / streams, 'report'),
  ];
}

/** Issue 50's point 3 on SQLite: a long history read by many clients at once holds up no other request. */
function historyTargets(history: HistoryResult): Target[] {
  const { clients, changes, limit } = history;
  const name = `sqlite: /health/live p99 beside ${clients} clients walking the history of a record with ${changes.toLocaleString('en')} changes in pages of ${limit}, ms`;
  const walking = `beside ${clients} clients walking that history`;
  const cpuUs = cpuUsPerRequest(history.walks);
  return [
    target(name, history.live.p99Ms, { below: 50 }),
    target(`sqlite: server CPU a history page of ${limit} ${walking}, ms`, cpuUs === undefined ? undefined : cpuUs / 1000, 'report'),
    target(`sqlite: the longest event-loop delay ${walking}, ms`, history.longestBlockMs, 'report'),
  ];
}

function soakTargets(results: Measured): Target[] {
  const runs = everyRun(results);
  // No run expects a non-2xx: no find or update of a missing id, no value sent twice.
  const failures = runs.reduce((sum, s) => sum + s.non2xx + s.errors, 0);
  const silent = runs.filter((sample) => sample.requests === 0).length;
  const { soak } = results;
  return [
    target('soak: live heap growth, after a full collection at each end, MB', soak.liveHeapEndMb - soak.liveHeapStartMb, { below: 10 }),
    // The find run's, not the create runs': those keep every record they make in the memory store, so their peak measures the data set.
    target('memory: app RSS in the find run, MB', results.throughput.comparison.find?.app?.peakRssMb, { below: 150 }),
    target('every run, the soak included: non-2xx and errors', failures, { atMost: 0 }),
    target('every run: runs that got no answer', silent, { atMost: 0 }),
  ];
}

/** Every load the run timed with a count of its answers: each round of the comparisons, the paced loads, the scale scenario's, the history's and the soak. */
function everyRun(results: Measured): Sample[] {
  const { comparison, findsBesideCreates } = results.throughput;
  const summaries = [comparison, results.webhooks.isolation].flatMap((byOp) => Object.values(byOp).flatMap((byServer): Summary[] => Object.values(byServer)));
  const paced = [findsBesideCreates.find, findsBesideCreates.create];
  const scale = results.scale === undefined ? [] : scaleSamples(results.scale);
  const { live, walks } = results.history;
  return [...[...summaries, ...paced].flatMap((summary) => summary.rounds), ...scale, live, walks, results.soak.sample];
}

function scaleSamples(scale: ScaleResult): Sample[] {
  const counts = Object.values(scale.counted).flatMap((pair) => [pair.with, pair.without]);
  const beside = Object.values(scale.beside).flatMap((b) => [b.find, b.live, b.load]);
  return [scale.search.rare, scale.search.common, ...Object.values(scale.firstPages), scale.deepPage.first, scale.deepPage.deep, ...counts, ...beside];
}
