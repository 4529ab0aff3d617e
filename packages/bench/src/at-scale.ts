import type autocannon from 'autocannon';
import { join } from 'node:path';
import { withApp } from './app.js';
import { describe, turnOrder, type Plan } from './compare.js';
import { runLoad, type Sample } from './load.js';
import { runPacedApart, warmPacedGenerator, type PacedRun } from './paced-generator.js';
import { type ServerProcess } from './processes.js';
import { median } from './stats.js';

/**
 * Finding records in a large store (issue 28): searches, each sort's first page, a page deep
 * in a cursor walk, counts, and whether expensive reads starve cheap ones, on SQLite,
 * seeded with `records` work schedules and as many cost centers.
 */
export interface ScaleResult {
  readonly records: number;
  /** One connection, one request after another: the latency a clerk sees. */
  readonly search: { readonly rare: Sample; readonly common: Sample };
  /** The first page of 100 of each sort, by the `sort` value. */
  readonly firstPages: Readonly<Record<string, Sample>>;
  /** The page of 100 at depth `records - 100` of the text order, reached through `next`, and the first page of the same order. */
  readonly deepPage: { readonly depth: number; readonly first: Sample; readonly deep: Sample };
  /** The same pages with `count=true` and without: the plain list's first page and the text order's. */
  readonly counted: Readonly<Record<'plain' | 'sorted', { readonly without: Sample; readonly with: Sample }>>;
  /** Finds and `/health/live`, paced, while 16 connections send expensive reads as fast as they can. */
  readonly beside: Readonly<Record<ExpensiveRead, Beside>>;
}

/** The expensive reads cheap ones are measured beside, and their names in the bench's lines. */
const EXPENSIVE_READS = { deepPages: 'deep pages', searches: 'searches' } as const;
type ExpensiveRead = keyof typeof EXPENSIVE_READS;

/** Paced finds and `/health/live`, and the expensive reads they ran beside. */
interface Beside {
  readonly find: Sample;
  readonly live: Sample;
  readonly load: Sample;
}

/** The words the seeded texts are made of: accents and case a search folds away. */
const WORDS = ['Manutenção Elétrica', 'Operações', 'Álvaro Turno', 'Logística', 'Produção', 'Segurança do Trabalho', 'TI', 'Escala'] as const;

/** Record `n`'s text: unique, and in a different place of the text order than of the creation order. */
export function textOf(n: number): string {
  return `${WORDS[n % WORDS.length] ?? 'Escala'} ${(n * 7919) % 1_000_003} ${n}`;
}

/** A search that matches about one record in 100,000 (the whole store is scanned), and one that matches one in eight. */
export const SEARCHES = { rare: 'eletrica 4242', common: 'operacoes' } as const;

/** The sorts of `/scales`. */
const SCALE_SORTS = ['createdAt', '-createdAt', 'updatedAt', '-updatedAt', 'value', '-value'] as const;

/** Connections sending expensive reads as fast as they can, and the paced cheap ones beside them. */
const EXPENSIVE = { connections: 16, findsPerSecond: 200, livesPerSecond: 50 } as const;

const LATENCY_REQUESTS = 500;

/** Runs the scale scenario on a fresh app on SQLite, a file in `dir`. */
export async function scaleScenario(records: number, dir: string, plan: Plan, pinned: boolean): Promise<ScaleResult> {
  return withApp({ storage: 'sqlite', sqlitePath: join(dir, 'scale.db') }, pinned, async (app) => {
    const ids = await seedTexts(app, plan, records);
    const label = 'scale';
    const latency = async (name: string, path: string): Promise<Sample> => {
      const sample = await runLoad({ server: app, connections: 1, amount: LATENCY_REQUESTS, headers: plan.headers, requests: [{ method: 'GET', path }] });
      console.log(`${label} ${name}: ${describe(sample)}`);
      return sample;
    };
    const search = {
      rare: await latency(`search "${SEARCHES.rare}"`, `/api/v1/scales/100?q=${encodeURIComponent(SEARCHES.rare)}`),
      common: await latency(`search "${SEARCHES.common}"`, `/api/v1/scales/100?q=${encodeURIComponent(SEARCHES.common)}`),
    };
    const firstPages: Record<string, Sample> = {};
    for (const sort of SCALE_SORTS) firstPages[sort] = await latency(`first page sort=${sort}`, `/api/v1/scales/100?sort=${sort}`);
    const deepPath = await walkTo(app, plan, '/api/v1/scales/100?sort=value', records - 100);
    const deepPage = {
      depth: records - 100,
      first: await latency('first page sort=value (again)', '/api/v1/scales/100?sort=value'),
      deep: await latency(`page at depth ${records - 100} sort=value`, deepPath),
    };
    const counted = {
      plain: await withAndWithoutCount(app, plan, `${label} plain first page`, '/api/v1/scales/100'),
      sorted: await withAndWithoutCount(app, plan, `${label} first page sort=value`, '/api/v1/scales/100?sort=value'),
    };
    const beside = await besideInRounds(app, plan, ids, label, {
      deepPages: `/api/v1/scales/${records - 100}/100`,
      searches: `/api/v1/scales/100?q=${encodeURIComponent(SEARCHES.rare)}`,
    });
    return { records, search, firstPages, deepPage, counted, beside };
  });
}

/**
 * Turns of 50 requests each side, so each side's median comes from many turns: with ten,
 * one page's p50 against the same page's moved between two runs on a quiet machine by
 * more than the difference being measured (docs/benchmarks/README.md).
 */
const COUNT_TURNS = 40;
const COUNT_TURN_REQUESTS = 50;

/** The two sides of turn `turn`, in the order they are sent: each goes first in every other turn. */
export function sidesOfTurn<S>(turn: number, first: S, second: S): readonly [S, S] {
  return turn % 2 === 0 ? [first, second] : [second, first];
}

/**
 * A page's latency without `count=true` and with it, in turns taken alternately: the
 * difference is a fraction of a tenth of a millisecond, less than what a page's latency
 * drifts by over a few seconds, so runs one after the other would measure the drift, and
 * a side always sent second would measure what follows the first.
 */
async function withAndWithoutCount(app: ServerProcess, plan: Plan, label: string, path: string): Promise<{ without: Sample; with: Sample }> {
  const counted = `${path}${path.includes('?') ? '&' : '?'}count=true`;
  const runs: { without: Sample[]; with: Sample[] } = { without: [], with: [] };
  for (let turn = 0; turn < COUNT_TURNS; turn += 1) {
    for (const [side, sent] of sidesOfTurn(turn, ['without', path] as const, ['with', counted] as const)) {
      runs[side].push(await runLoad({ server: app, connections: 1, amount: COUNT_TURN_REQUESTS, headers: plan.headers, requests: [{ method: 'GET', path: sent }] }));
    }
  }
  const result = { without: ofTurns(runs.without), with: ofTurns(runs.with) };
  console.log(`${label}: ${describe(result.without)}; with count=true: ${describe(result.with)}`);
  return result;
}

/** Runs taken in turns as one sample: the medians of their latencies, the sums of their counts. */
export function ofTurns(runs: readonly Sample[]): Sample {
  const sum = (of: (sample: Sample) => number): number => runs.reduce((total, sample) => total + of(sample), 0);
  const rss = runs.map((sample) => sample.peakRssMb).filter((mb) => mb !== undefined);
  const requests = sum((sample) => sample.requests);
  const seconds = sum((sample) => sample.seconds);
  return {
    requests,
    seconds,
    reqPerSec: seconds > 0 ? requests / seconds : 0,
    p50Ms: median(runs.map((sample) => sample.p50Ms)),
    p99Ms: median(runs.map((sample) => sample.p99Ms)),
    non2xx: sum((sample) => sample.non2xx),
    errors: sum((sample) => sample.errors),
    peakRssMb: rss.length === 0 ? undefined : Math.max(...rss),
    generatorCpuPct: Math.max(...runs.map((sample) => sample.generatorCpuPct)),
    serverCpuMs: runs.some((sample) => sample.serverCpuMs === undefined) ? undefined : sum((sample) => sample.serverCpuMs ?? 0),
  };
}

/** Creates `records` work schedules and as many cost centers with `textOf` texts; the work schedules' ids. */
async function seedTexts(app: ServerProcess, plan: Plan, records: number): Promise<string[]> {
  const ids: string[] = [];
  for (const [path, field] of [['/api/v1/scale', 'value'], ['/api/v1/costCenter', 'title']] as const) {
    let n = 0;
    const requests: autocannon.Request[] = [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, path, body: JSON.stringify({ [field]: textOf((n += 1)) }) }),
        onResponse: (status, body) => {
          const id = status === 201 && field === 'value' ? /"id":"([^"]+)"/u.exec(body)?.[1] : undefined;
          if (id !== undefined) ids.push(id);
        },
      },
    ];
    const sample = await runLoad({ server: app, connections: plan.connections, headers: plan.headers, requests, amount: records });
    if (sample.non2xx > 0 || sample.errors > 0) throw new Error(`seeding ${app.name} ${path}: ${sample.non2xx} non-2xx, ${sample.errors} errors`);
  }
  if (ids.length !== records) throw new Error(`seeding ${app.name}: ${ids.length} of ${records} work schedules created`);
  return ids;
}

/** Follows `Link: rel="next"` from `path` until `depth` records have been passed; the path of the page there. */
async function walkTo(app: ServerProcess, plan: Plan, path: string, depth: number): Promise<string> {
  let next = path;
  for (let passed = 0; passed < depth; passed += 100) {
    const response = await fetch(`${app.url}${next}`, { headers: plan.headers });
    await response.arrayBuffer();
    const link = /<([^>]+)>;\s*rel="next"/u.exec(response.headers.get('link') ?? '')?.[1];
    if (!response.ok || link === undefined) throw new Error(`walking ${path}: no next page after ${passed} records (status ${response.status})`);
    next = link;
  }
  return next;
}

/**
 * Cheap requests beside each kind of expensive read, in `plan.rounds` rounds, the kinds
 * taken in turns, and each measure the median of its rounds (`ofTurns`), as the bench's
 * other paced measures: a p99 of 200 finds a second is the 20th-worst of a round's 2,000,
 * and one stall in a round can decide it (docs/benchmarks/README.md).
 */
async function besideInRounds(
  app: ServerProcess,
  plan: Plan,
  ids: readonly string[],
  label: string,
  expensive: Readonly<Record<ExpensiveRead, string>>,
): Promise<Record<ExpensiveRead, Beside>> {
  const rounds: Record<ExpensiveRead, Beside[]> = { deepPages: [], searches: [] };
  const kinds = Object.keys(rounds) as ExpensiveRead[];
  for (let round = 1; round <= plan.rounds; round += 1) {
    for (const kind of turnOrder(kinds, round)) {
      rounds[kind].push(await cheapBesideExpensive(app, plan, ids, expensive[kind], `${label} beside ${EXPENSIVE_READS[kind]} round ${round}/${plan.rounds}`));
    }
  }
  const merged = (of: readonly Beside[]): Beside => ({
    find: ofTurns(of.map((r) => r.find)),
    live: ofTurns(of.map((r) => r.live)),
    load: ofTurns(of.map((r) => r.load)),
  });
  return { deepPages: merged(rounds.deepPages), searches: merged(rounds.searches) };
}

/**
 * Paced finds and `/health/live` while `EXPENSIVE.connections` connections send `expensive`
 * as fast as the app answers them, for a round.
 */
async function cheapBesideExpensive(
  app: ServerProcess,
  plan: Plan,
  ids: readonly string[],
  expensive: string,
  label: string,
): Promise<Beside> {
  const seconds = plan.roundSeconds;
  const paced: PacedRun = {
    server: app,
    seconds,
    headers: plan.headers,
    loads: [
      { perSecond: EXPENSIVE.findsPerSecond, connections: 4, requests: { kind: 'find', ids } },
      { perSecond: EXPENSIVE.livesPerSecond, connections: 2, requests: { kind: 'get', path: '/health/live' } },
    ],
  };
  // Warmed first, so its counted run and the expensive reads start together.
  await warmPacedGenerator(paced);
  const [load, [finds, lives]] = await Promise.all([
    runLoad({ server: app, connections: EXPENSIVE.connections, seconds, headers: plan.headers, requests: [{ method: 'GET', path: expensive }] }),
    runPacedApart(paced),
  ]);
  if (finds === undefined || lives === undefined) throw new Error('the paced generator answered fewer samples than loads');
  console.log(`${label}: expensive ${describe(load)}; finds ${describe(finds)}; live ${describe(lives)}`);
  return { find: finds, live: lives, load };
}
