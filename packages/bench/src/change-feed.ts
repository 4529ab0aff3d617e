import { join } from 'node:path';
import { withApp, type AppSpec } from './app.js';
import { seed, type Plan } from './compare.js';
import { type ServerProcess } from './processes.js';
import { median, percentile } from './stats.js';
import { createOfNewValue } from './workloads.js';

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

/** What the changes phase found on SQLite (issue 29). */
export interface ChangesResult {
  readonly read: FeedRead;
  readonly wake: FeedWake;
}

/** How much the phase does: changes in the feed that is read, and long polls woken. */
export interface ChangesPlan {
  readonly feedChanges: number;
  readonly wakes: number;
  readonly readRounds: number;
}

/** Runs the changes phase on fresh SQLite apps, on files in `dir`. */
export async function changesPhase(changesPlan: ChangesPlan, dir: string, plan: Plan, pinned: boolean): Promise<ChangesResult> {
  const specOf = (name: string): AppSpec => ({ storage: 'sqlite', sqlitePath: join(dir, `${name}.db`) });
  const read = await withApp(specOf('feed-read'), pinned, (app) => readFeed(app, changesPlan, plan));
  console.log(`changes: feed read ${Math.round(read.perSecond)} changes/s (${read.changes} changes, pages of 1000)`);
  const wake = await withApp(specOf('feed-wake'), pinned, (app) => wakeLongPolls(app, changesPlan.wakes, plan));
  console.log(`changes: long poll woken p50 ${wake.p50Ms.toFixed(2)} ms, p99 ${wake.p99Ms.toFixed(2)} ms`);
  return { read, wake };
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
