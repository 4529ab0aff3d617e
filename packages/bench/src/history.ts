import type autocannon from 'autocannon';
import { join } from 'node:path';
import { withApp } from './app.js';
import { ofTurns } from './at-scale.js';
import { describe, type Plan } from './compare.js';
import { runLoad, type Sample } from './load.js';
import { runPacedApart, warmPacedGenerator, type PacedRun } from './paced-generator.js';
import { type ServerProcess } from './processes.js';

/** Many clients reading one record's long history at once, and `/health/live` beside them (issue 50, point 3). */
export interface HistoryResult {
  /** The changes of the one record whose history is read. */
  readonly changes: number;
  /** Clients walking it at once, each one connection. */
  readonly clients: number;
  /** The `limit` every page is asked with. */
  readonly limit: number;
  /** Pages a walk from the first to the last takes. */
  readonly pages: number;
  /** `/health/live`, paced, while the clients walk. */
  readonly live: Sample;
  /** The clients' pages. */
  readonly walks: Sample;
  /**
   * The longest the event loop was held in any round, in ms: the app's
   * `nodejs_eventloop_lag_max_seconds` over the round (undefined where /metrics did not say).
   * Under load on a shared machine, a truer figure of a page's hold on the loop than a p99.
   */
  readonly longestBlockMs?: number | undefined;
}

/** How much the phase does. */
export interface HistoryPlan {
  readonly changes: number;
  readonly clients: number;
  readonly limit: number;
  readonly livesPerSecond: number;
  /** The probe's connections: enough that a probe waits for the app, not behind the probe before it, up to some 200 ms. */
  readonly liveConnections: number;
}

/** The phase's size in a full run and in --quick: issue 50's 48 clients and 10,000 changes, in pages of the largest limit. */
export function historyPlanOf(quick: boolean): HistoryPlan {
  return { changes: quick ? 1000 : 10_000, clients: 48, limit: 1000, livesPerSecond: 100, liveConnections: 20 };
}

const RECORD = '/api/v1/costCenter';

/** A title as long as the contract takes (200 code points), unique to `n`: the largest change a history holds. */
export function titleOf(n: number): string {
  return `Centro ${String(n).padStart(6, '0')} manutenção predial e elétrica `.padEnd(200, 'x');
}

/** The next page's path from a `Link` header, undefined on the last page. */
export function nextOf(link: string | undefined): string | undefined {
  return /<([^>]+)>;\s*rel="next"/u.exec(link ?? '')?.[1];
}

/**
 * On a fresh app on SQLite, a file in `dir`: one cost center given `changes` changes, then
 * `clients` connections each walking its whole history from the first page to the last by
 * `Link: rel="next"`, over and over, while `/health/live` is asked at a steady pace, in
 * `plan.rounds` rounds; each measure is the median of its rounds (`ofTurns`).
 */
export async function historyPhase(historyPlan: HistoryPlan, dir: string, plan: Plan, pinned: boolean): Promise<HistoryResult> {
  return withApp({ storage: 'sqlite', sqlitePath: join(dir, 'history.db') }, pinned, async (app) => {
    const id = await seedHistory(app, plan, historyPlan.changes);
    const first = `${RECORD}/${id}/history?limit=${String(historyPlan.limit)}`;
    const pages = await countPages(app, plan, first, historyPlan.changes);
    const lives: Sample[] = [];
    const walks: Sample[] = [];
    const blocks: number[] = [];
    for (let round = 1; round <= plan.rounds; round += 1) {
      // Read once before, as prom-client starts its lag histogram again at each read of /metrics.
      await longestBlockMsOf(app, plan);
      const [live, walk] = await liveBesideWalks(app, plan, historyPlan, first, pages);
      const block = await longestBlockMsOf(app, plan);
      if (block !== undefined) blocks.push(block);
      const held = block === undefined ? '' : `; the event loop held at most ${block.toFixed(1)} ms`;
      console.log(`history round ${round}/${plan.rounds}: ${historyPlan.clients} clients walking ${pages} pages: ${describe(walk)}; live ${describe(live)}${held}`);
      lives.push(live);
      walks.push(walk);
    }
    const longestBlockMs = blocks.length === 0 ? undefined : Math.max(...blocks);
    return { changes: historyPlan.changes, clients: historyPlan.clients, limit: historyPlan.limit, pages, live: ofTurns(lives), walks: ofTurns(walks), longestBlockMs };
  });
}

/** The app's longest event-loop delay since /metrics was last read, in ms; undefined where it does not say. */
async function longestBlockMsOf(app: ServerProcess, plan: Plan): Promise<number | undefined> {
  const response = await fetch(`${app.url}/metrics`, { headers: plan.headers });
  const text = await response.text();
  const seconds = /^nodejs_eventloop_lag_max_seconds (\S+)$/mu.exec(text)?.[1];
  return response.ok && seconds !== undefined ? Number(seconds) * 1000 : undefined;
}

/** Creates one cost center and updates it until it has `changes` changes; its id. */
async function seedHistory(app: ServerProcess, plan: Plan, changes: number): Promise<string> {
  const created = await fetch(`${app.url}${RECORD}`, { method: 'POST', headers: { ...plan.headers, 'content-type': 'application/json' }, body: JSON.stringify({ title: titleOf(0) }) });
  const body = (await created.json()) as { data?: { id?: string } };
  const id = body.data?.id;
  if (created.status !== 201 || id === undefined) throw new Error(`creating the record of the history phase on ${app.name} answered ${created.status}`);
  let n = 0;
  const updates: autocannon.Request[] = [
    { method: 'PUT', path: `${RECORD}/${id}`, headers: { 'content-type': 'application/json' }, setupRequest: (request) => ({ ...request, body: JSON.stringify({ title: titleOf((n += 1)) }) }) },
  ];
  const sample = await runLoad({ server: app, connections: 10, amount: changes - 1, headers: plan.headers, requests: updates });
  if (sample.non2xx > 0 || sample.errors > 0) throw new Error(`seeding the history on ${app.name}: ${sample.non2xx} non-2xx, ${sample.errors} errors`);
  return id;
}

/** Walks the history once by `Link`, checking that it holds every change; the pages it took. */
async function countPages(app: ServerProcess, plan: Plan, first: string, changes: number): Promise<number> {
  let pages = 0;
  let read = 0;
  for (let path: string | undefined = first; path !== undefined; pages += 1) {
    const response = await fetch(`${app.url}${path}`, { headers: plan.headers });
    const body = (await response.json()) as { data?: unknown[] };
    if (response.status !== 200 || !Array.isArray(body.data)) throw new Error(`GET ${path} on ${app.name} answered ${response.status}`);
    read += body.data.length;
    path = nextOf(response.headers.get('link') ?? undefined);
  }
  if (read !== changes) throw new Error(`the history on ${app.name} held ${read} changes, not ${changes}`);
  return pages;
}

/** A request of a walk: its path set from the connection's context, which its answer's `Link` sets. */
interface WalkRequest {
  readonly method: 'GET';
  readonly setupRequest: (request: autocannon.Request, context: object) => autocannon.Request;
  readonly onResponse: (status: number, body: string, context: object, headers: autocannon.Request['headers']) => void;
}

/**
 * The requests of one walk, for autocannon: page `n` follows the `Link` of page `n - 1`,
 * kept in the connection's context, which autocannon clears after the last, so each
 * connection walks from the first page again. A walk that ends early starts over.
 */
export function walkRequests(first: string, pages: number): WalkRequest[] {
  interface Walk { next?: string | undefined }
  return Array.from({ length: pages }, (_, page) => ({
    method: 'GET',
    setupRequest: (request, context) => ({ ...request, path: page === 0 ? first : ((context as Walk).next ?? first) }),
    onResponse: (_status, _body, context, headers) => {
      // autocannon keeps each header's name as the server wrote it.
      const link = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'link')?.[1];
      (context as Walk).next = nextOf(typeof link === 'string' ? link : undefined);
    },
  }));
}

/** `/health/live` paced from the generator's process while `clients` connections walk the history, for a round. */
async function liveBesideWalks(app: ServerProcess, plan: Plan, historyPlan: HistoryPlan, first: string, pages: number): Promise<[Sample, Sample]> {
  const paced: PacedRun = {
    server: app,
    seconds: plan.roundSeconds,
    headers: plan.headers,
    loads: [{ perSecond: historyPlan.livesPerSecond, connections: historyPlan.liveConnections, requests: { kind: 'get', path: '/health/live' } }],
  };
  // Warmed first, so its counted run and the walks start together.
  await warmPacedGenerator(paced);
  const [walk, [live]] = await Promise.all([
    runLoad({ server: app, connections: historyPlan.clients, seconds: plan.roundSeconds, headers: plan.headers, requests: walkRequests(first, pages) }),
    runPacedApart(paced),
  ]);
  if (live === undefined) throw new Error('the paced generator answered no sample');
  return [live, walk];
}
