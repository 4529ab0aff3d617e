import { join } from 'node:path';
import { buildNameOf, startApp, type AppSpec } from './app.js';
import { compare, seed, type Comparison, type Plan } from './compare.js';
import { type ServerProcess } from './processes.js';
import { median, percentile } from './stats.js';
import { createOfNewValue, type Operation } from './workloads.js';

/** The storages whose change log is measured: MongoDB's is measured only where a server can keep up (not FerretDB). */
export type FeedStorage = 'memory' | 'sqlite';

/** Reading the feed from its start to its end in pages of 1000, as a follower catching up does. */
export interface FeedRead {
  readonly changes: number;
  /** The median of the rounds' rates, changes a second. */
  readonly perSecond: number;
  readonly rounds: readonly number[];
}

/** From a write's request to the answer of a long poll parked after the change before it. */
export interface FeedWake {
  readonly count: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** What the changes phase found (issue 29). */
export interface ChangesResult {
  /**
   * Creates, updates and deletes on the app (`app`) against the app built before writes were
   * kept as changes (`before`: that build's name, `buildNameOf`), per storage, in one run;
   * undefined without `BENCH_BEFORE_APP`.
   */
  readonly recording?: { readonly before: string; readonly memory: Comparison; readonly sqlite?: Comparison | undefined } | undefined;
  /** Why `recording` is missing. */
  readonly recordingNote?: string | undefined;
  readonly read: Readonly<Partial<Record<FeedStorage, FeedRead>>>;
  readonly wake: Readonly<Partial<Record<FeedStorage, FeedWake>>>;
}

/** How much the phase does: changes in the feed that is read, and long polls woken. */
export interface ChangesPlan {
  readonly feedChanges: number;
  readonly wakes: number;
  readonly readRounds: number;
}

/** The operations a write's recording costs, and the groups `compare` runs them in. */
const WRITES: readonly Operation[] = ['update', 'create', 'delete'];

/** Runs the changes phase on the memory store and, with `sqlite`, on SQLite files in `dir`. */
export async function changesPhase(
  options: { readonly sqlite: boolean; readonly beforeApp: string | undefined; readonly seedRecords: number },
  changesPlan: ChangesPlan,
  dir: string,
  plan: Plan,
  pinned: boolean,
): Promise<ChangesResult> {
  const storages: FeedStorage[] = options.sqlite ? ['memory', 'sqlite'] : ['memory'];
  const specOf = (storage: FeedStorage, name: string): AppSpec =>
    storage === 'memory' ? { storage } : { storage, sqlite: { path: join(dir, `${name}.db`), synchronous: 'normal' } };
  const read: Partial<Record<FeedStorage, FeedRead>> = {};
  const wake: Partial<Record<FeedStorage, FeedWake>> = {};
  for (const storage of storages) {
    read[storage] = await withApp(specOf(storage, 'feed-read'), pinned, (app) => readFeed(app, changesPlan, plan));
    console.log(`changes ${storage}: feed read ${Math.round(read[storage].perSecond)} changes/s (${read[storage].changes} changes, pages of 1000)`);
    wake[storage] = await withApp(specOf(storage, 'feed-wake'), pinned, (app) => wakeLongPolls(app, changesPlan.wakes, plan));
    console.log(`changes ${storage}: long poll woken p50 ${wake[storage].p50Ms.toFixed(2)} ms, p99 ${wake[storage].p99Ms.toFixed(2)} ms`);
  }
  if (options.beforeApp === undefined) {
    const recordingNote = 'not run: BENCH_BEFORE_APP unset (bash scripts/bench-before.sh prints the path of the app before changes were kept)';
    console.log(`changes: recording cost ${recordingNote}`);
    return { recordingNote, read, wake };
  }
  const recordingOn = async (storage: FeedStorage): Promise<Comparison> => {
    const now = await startApp(specOf(storage, 'recording-now'), pinned);
    const before = await startApp({ ...specOf(storage, 'recording-before'), script: options.beforeApp }, pinned);
    try {
      const contenders = [
        { key: 'before', server: before, operations: WRITES, ids: await seed(before, options.seedRecords, plan) },
        { key: 'app', server: now, operations: WRITES, ids: await seed(now, options.seedRecords, plan) },
      ];
      return await compare(contenders, plan, `recording ${storage}`);
    } finally {
      await Promise.all([now.stop(), before.stop()]);
    }
  };
  const memory = await recordingOn('memory');
  const sqlite = options.sqlite ? await recordingOn('sqlite') : undefined;
  return { recording: { before: buildNameOf(options.beforeApp), memory, sqlite }, read, wake };
}

async function withApp<T>(spec: AppSpec, pinned: boolean, use: (app: ServerProcess) => Promise<T>): Promise<T> {
  const app = await startApp(spec, pinned);
  try {
    return await use(app);
  } finally {
    await app.stop();
  }
}

/** Fills the feed with creates, then reads it from the start in pages of 1000, `readRounds` times. */
async function readFeed(app: ServerProcess, changesPlan: ChangesPlan, plan: Plan): Promise<FeedRead> {
  await seed(app, changesPlan.feedChanges, plan);
  const rounds: number[] = [];
  let changes = 0;
  for (let round = 0; round < changesPlan.readRounds; round += 1) {
    const started = performance.now();
    changes = 0;
    for (let after = '0'; ; ) {
      const page = await changesAfter(app, plan, after, 1000);
      changes += page.length;
      const last = page.at(-1);
      if (last === undefined) break;
      after = last.id;
    }
    rounds.push(changes / ((performance.now() - started) / 1000));
  }
  if (changes < changesPlan.feedChanges) throw new Error(`the feed of ${app.name} held ${changes} changes, not ${changesPlan.feedChanges}`);
  return { changes, perSecond: median(rounds), rounds };
}

/**
 * Parks a long poll after the newest change, sends a create, and times from the create's
 * request to the poll's answer: the commit's wake-up as a follower sees it, the write's own
 * time included.
 */
async function wakeLongPolls(app: ServerProcess, count: number, plan: Plan): Promise<FeedWake> {
  const latencies: number[] = [];
  let after = '0';
  for (let n = 0; n < count; n += 1) {
    const poll = changesAfter(app, plan, after, 1000, 30);
    // Long enough for the poll to be parked before the write is sent.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const sent = performance.now();
    const { path, body } = createOfNewValue();
    const created = await fetch(`${app.url}${path}`, { method: 'POST', headers: { ...plan.headers, 'content-type': 'application/json' }, body });
    await created.arrayBuffer();
    if (created.status !== 201) throw new Error(`a create answered ${created.status} on ${app.name}`);
    const page = await poll;
    latencies.push(performance.now() - sent);
    const last = page.at(-1);
    if (last === undefined) throw new Error(`a long poll on ${app.name} answered no change after a create`);
    after = last.id;
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  return { count, p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), maxMs: sorted.at(-1) ?? Number.NaN };
}

/** One page of `GET /api/v1/changes`; fails on anything but 200. */
async function changesAfter(app: ServerProcess, plan: Plan, after: string, limit: number, wait?: number): Promise<{ id: string }[]> {
  const waiting = wait === undefined ? '' : `&wait=${String(wait)}`;
  const response = await fetch(`${app.url}/api/v1/changes?after=${after}&limit=${String(limit)}${waiting}`, { headers: plan.headers });
  const body = (await response.json()) as { data?: { id: string }[] };
  if (response.status !== 200 || !Array.isArray(body.data)) throw new Error(`GET /api/v1/changes on ${app.name} answered ${response.status}`);
  return body.data;
}

/** The phase's size in a full run and in --quick. */
export function changesPlanOf(quick: boolean): ChangesPlan {
  return quick ? { feedChanges: 2000, wakes: 30, readRounds: 1 } : { feedChanges: 20_000, wakes: 200, readRounds: 3 };
}
