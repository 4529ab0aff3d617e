import { describe, expect, it } from 'vitest';
import { type Summary } from './compare.js';
import { type Sample } from './load.js';
import { checkTargets, type Measured } from './results.js';
import { type SqliteResult } from './scenarios.js';
import { type SoakResult } from './soak.js';
import { type SweepPoint } from './sweeps.js';
import { formatMet, target } from './targets.js';

describe('target', () => {
  it('is met at or above an atLeast bound and missed below it', () => {
    expect(target('find', 0.85, { atLeast: 0.85 })).toEqual({ name: 'find', measured: 0.85, threshold: '>= 0.85', met: true });
    expect(target('find', 0.84, { atLeast: 0.85 }).met).toBe(false);
  });

  it('is met at or below an atMost bound, and only strictly below a below bound', () => {
    expect([target('p99', 3, { atMost: 3 }).met, target('p99', 3.01, { atMost: 3 }).met]).toEqual([true, false]);
    expect([target('rss', 149.9, { below: 150 }).met, target('rss', 150, { below: 150 }).met]).toEqual([true, false]);
  });

  it('has no threshold and no verdict on a row that only reports', () => {
    const row = target('sqlite create', 0.4, 'report');
    expect([row, formatMet(row)]).toEqual([{ name: 'sqlite create', measured: 0.4, threshold: null, met: null }, 'report']);
  });

  it('says not run, never met, when the figure is missing', () => {
    const row = target('mongodb find', undefined, { atLeast: 0.85 });
    expect([row.measured, row.met, formatMet(row)]).toEqual([null, null, 'not run']);
    expect(target('nan', Number.NaN, { atLeast: 0 }).met).toBeNull();
  });
});

const sample = (reqPerSec: number, p50Ms = 1, p99Ms = 2): Sample => ({
  requests: reqPerSec, seconds: 1, reqPerSec, p50Ms, p99Ms, non2xx: 0, errors: 0, peakRssMb: 100, generatorCpuPct: 50,
});
const summary = (reqPerSec: number, p99Ms = 2): Summary => {
  const s = sample(reqPerSec, 1, p99Ms);
  return { ...s, rounds: [s] };
};
const page = (limit: number, s: Sample): SweepPoint => ({ records: 1000, skip: 0, limit, sample: s });
const soak: SoakResult = {
  seconds: 5, rate: 1000, sample: sample(1000), rssTrace: [100, 101], rssStartMb: 100, rssEndMb: 101, rssGrowthMb: 1, liveHeapStartMb: 20, liveHeapEndMb: 22,
};

/** A run with the memory scenario and sweep only: SQLite, MongoDB and the peers did not run. */
function run(app1000: Sample, soakResult: SoakResult = soak): Measured {
  return {
    meta: { date: '', mode: 'quick', rounds: 1, roundSeconds: 1, warmupSeconds: 0, connections: 50, seedRecords: 100, pinned: false, tookSeconds: 1,
      machine: { cpu: 'x', cores: 2, memoryGb: 1, os: 'x', node: 'v24.0.0', commit: undefined, loadAtStart: 0 } },
    memory: {
      appMetrics: true,
      comparison: {
        find: { b: summary(1000, 2), app: summary(900, 3.2) },
        list: { b: summary(1000), app: summary(600) },
      },
    },
    mongodb: undefined,
    mongodbNote: 'not run',
    sweeps: { memory: { pageSize: [page(1000, app1000)], collectionSize: [], beside: { b: [page(1000, sample(200))] } }, mongodb: undefined },
    soak: soakResult,
    conditional: { find: 1.2, update: 3.4 },
  };
}

/** The SQLite scenario: the SQLite app's req/s per operation beside the memory app's 1000, and a paced load's `find` and `create`. */
function sqliteRun(app: { find: number; create: number; list: number }, paced: { findP99Ms: number; create?: Summary }): SqliteResult {
  const memory = summary(1000);
  const pacedFind = summary(2000, paced.findP99Ms);
  const pacedCreate = paced.create ?? summary(1000);
  return {
    appMetrics: true,
    comparison: {
      find: { memory, app: summary(app.find) },
      create: { memory, app: summary(app.create) },
      list: { memory, app: summary(app.list) },
    },
    findsDuringCreates: {
      memory: { find: summary(2000), create: summary(1000) },
      normal: { find: pacedFind, create: pacedCreate },
      full: { find: summary(2000), create: summary(1000) },
    },
    findsAlone: summary(2000),
  };
}

describe('checkTargets', () => {
  const byName = (targets: ReturnType<typeof checkTargets>, name: string) => targets.find((t) => t.name.startsWith(name));

  it('computes each ratio from the medians, and its verdict from the bound', () => {
    const targets = checkTargets(run(sample(160, 10, 25)));
    expect(byName(targets, 'memory: find, app / (b)')).toMatchObject({ measured: 0.9, met: true });
    expect(byName(targets, 'memory: list of 100, app / (b)')).toMatchObject({ measured: 0.6, threshold: '>= 0.7', met: false });
    expect(byName(targets, 'memory: list of 1000, app / (b)')).toMatchObject({ measured: 0.8, met: true });
    expect(byName(targets, 'memory: find p99 at 50 connections')?.measured).toBeCloseTo(1.6);
    expect(byName(targets, 'memory: find p99 at 50 connections')?.met).toBe(false);
  });

  it('holds a plain list to 0.95 of the app before search and sort, taken in the same rounds, and names that build', () => {
    const base = run(sample(160));
    const beside = (before: number): Measured => ({
      ...base,
      memory: { ...base.memory, listBefore: 'app-at-30c5742', comparison: { ...base.memory.comparison, list: { b: summary(1000), app: summary(600), listBefore: summary(before) } } },
    });
    const name = 'memory: list of 100, app / the app before search and sort';
    expect(byName(checkTargets(beside(630)), name)).toMatchObject({ name: `${name} (app-at-30c5742)`, threshold: '>= 0.95', met: true });
    expect(byName(checkTargets(beside(640)), name)?.met).toBe(false);
    expect(byName(checkTargets(base), name)).toMatchObject({ measured: null, met: null });
  });

  it('reports the app with neither request log nor metrics against (b), with no verdict', () => {
    const base = run(sample(160));
    const quiet: Measured = { ...base, memory: { ...base.memory, comparison: { ...base.memory.comparison, update: { b: summary(1000), app: summary(500), quiet: summary(620) } } } };
    expect(byName(checkTargets(quiet), 'memory: update, app with')).toEqual({
      name: 'memory: update, app with LOG_LEVEL=warn, METRICS=off / (b)',
      measured: 0.62,
      threshold: null,
      met: null,
    });
    expect(byName(checkTargets(base), 'memory: update, app with')).toMatchObject({ measured: null, met: null });
  });

  it('reports the app before search and sort against (b) for each operation, with no verdict, only when it ran', () => {
    const base = run(sample(160));
    const before: Measured = {
      ...base,
      memory: { ...base.memory, listBefore: 'app-at-30c5742', comparison: { ...base.memory.comparison, delete: { b: summary(1000), app: summary(600), listBefore: summary(950) } } },
    };
    const rows = checkTargets(before).filter((row) => row.name.includes(', the app before search and sort (app-at-30c5742) / (b)'));
    expect(rows.map((row) => row.name.split(',')[0])).toEqual(['memory: find', 'memory: update', 'memory: list', 'memory: create', 'memory: delete']);
    expect(byName(rows, 'memory: delete')).toEqual({
      name: 'memory: delete, the app before search and sort (app-at-30c5742) / (b)',
      measured: 0.95,
      threshold: null,
      met: null,
    });
    expect(byName(rows, 'memory: update')).toMatchObject({ measured: null, met: null });
    expect(checkTargets(base).some((row) => row.name.includes('the app before search and sort (') && row.name.endsWith('/ (b)'))).toBe(false);
  });

  it('holds the list of 1000 to p99 at most 3 times its own p50', () => {
    expect(byName(checkTargets(run(sample(160, 10, 30))), 'memory: list of 1000, app p99')).toMatchObject({ measured: 3, met: true });
    expect(byName(checkTargets(run(sample(160, 10, 2300))), 'memory: list of 1000, app p99')).toMatchObject({ measured: 230, met: false });
  });

  it('leaves what did not run as not run, and report rows without a verdict', () => {
    const targets = checkTargets(run(sample(160)));
    expect(byName(targets, 'mongodb: find')).toMatchObject({ measured: null, met: null });
    expect(byName(targets, 'mongodb: (c) findOne req/s')).toMatchObject({ measured: null, threshold: '>= 1000', met: null });
    expect(byName(targets, 'peers: find, app / (d)')).toMatchObject({ measured: null, threshold: '>= 1.3', met: null });
    expect(byName(targets, 'sqlite: create')).toMatchObject({ measured: null, threshold: '>= 0.6', met: null });
    expect(byName(targets, 'sqlite: update')).toMatchObject({ threshold: null, met: null });
    expect(targets.filter((t) => t.name.startsWith('runtime:'))).toEqual([]);
  });

  it('checks the soak for a leak by the heap after a full collection, and only reports the RSS climb', () => {
    const climbing = { ...soak, rssGrowthMb: 25, liveHeapStartMb: 20, liveHeapEndMb: 23 };
    const targets = checkTargets(run(sample(160), climbing));
    expect(byName(targets, 'soak: live heap growth')).toMatchObject({ measured: 3, threshold: '< 10', met: true });
    expect(byName(targets, 'soak: RSS growth')).toMatchObject({ measured: 25, met: null });
    const leaking = checkTargets(run(sample(160), { ...soak, rssGrowthMb: 1, liveHeapEndMb: 35 }));
    expect(byName(leaking, 'soak: live heap growth')).toMatchObject({ measured: 15, met: false });
  });

  it('holds conditional requests, when none is sent, to 3% of the app\'s CPU', () => {
    const targets = checkTargets(run(sample(160)));
    expect(byName(targets, "conditional requests, none sent: share of the app's CPU under finds")).toMatchObject({ measured: 1.2, threshold: '<= 3', met: true });
    expect(byName(targets, "conditional requests, none sent: share of the app's CPU under updates")).toMatchObject({ measured: 3.4, met: false });
  });

  it('holds SQLite to 0.6 of the memory app on find, create and list of 100, and its find p99 beside creates to 5 ms', () => {
    const met = checkTargets({ ...run(sample(160)), sqlite: sqliteRun({ find: 600, create: 700, list: 650 }, { findP99Ms: 5 }) });
    expect(byName(met, 'sqlite: find, app / memory app')).toMatchObject({ measured: 0.6, threshold: '>= 0.6', met: true });
    expect(byName(met, 'sqlite: create, app / memory app')).toMatchObject({ measured: 0.7, threshold: '>= 0.6', met: true });
    expect(byName(met, 'sqlite: list of 100, app / memory app')).toMatchObject({ measured: 0.65, threshold: '>= 0.6', met: true });
    expect(byName(met, 'sqlite: find p99 while creates run (')).toMatchObject({ measured: 5, threshold: '<= 5', met: true });
    const missed = checkTargets({ ...run(sample(160)), sqlite: sqliteRun({ find: 590, create: 590, list: 590 }, { findP99Ms: 5.1 }) });
    const names = ['sqlite: find, app', 'sqlite: create, app', 'sqlite: list of 100, app', 'sqlite: find p99 while creates run ('];
    expect(names.map((name) => byName(missed, name)?.met)).toEqual([false, false, false, false]);
  });

  it('only reports the SQLite figures the revised targets dropped: the list of 1000 and the find p99 beside the memory app', () => {
    const targets = checkTargets({ ...run(sample(160)), sqlite: sqliteRun({ find: 600, create: 600, list: 600 }, { findP99Ms: 1 }) });
    expect(byName(targets, 'sqlite: list of 1000')).toMatchObject({ threshold: null, met: null });
    expect(byName(targets, 'sqlite: find p99, app / memory app')).toMatchObject({ measured: 1, threshold: null, met: null });
  });

  it('counts every non-2xx against zero: the comparisons, the paced loads and every sweep, MongoDB\'s included', () => {
    const every = (measured: Measured) => byName(checkTargets(measured), 'every run and sweep: non-2xx');
    const clean = { ...run(sample(160)), sqlite: sqliteRun({ find: 600, create: 600, list: 600 }, { findP99Ms: 1 }) };
    expect(every(clean)).toMatchObject({ measured: 0, threshold: '<= 0', met: true });
    const timedOut: Sample = { ...sample(25), non2xx: 117 };
    const mongoSweep = { pageSize: [page(1000, timedOut)], collectionSize: [{ records: 1000, skip: 900, limit: 100, sample: { ...sample(30), errors: 3 } }] };
    expect(every({ ...clean, sweeps: { ...clean.sweeps, mongodb: mongoSweep } })).toMatchObject({ measured: 120, met: false });
    const memorySweep = { ...clean.sweeps.memory, beside: { sqlite: [page(1000, { ...sample(200), non2xx: 2 })] } };
    expect(every({ ...clean, sweeps: { ...clean.sweeps, memory: memorySweep } })?.measured).toBe(2);
    const failedCreates = sqliteRun({ find: 600, create: 600, list: 600 }, { findP99Ms: 1, create: { ...summary(1000), rounds: [{ ...sample(1000), non2xx: 4 }] } });
    expect(every({ ...clean, sqlite: failedCreates })?.measured).toBe(4);
  });

  it('holds keeping changes to 0.8 of the app before, the feed to 20,000 changes a second and a long poll to 50 ms p99', () => {
    const writes = (app: number) => ({ create: { before: summary(1000), app: summary(app) }, update: { before: summary(1000), app: summary(app) }, delete: { before: summary(1000), app: summary(app) } });
    const changes = {
      recording: { before: 'main.js', memory: writes(800), sqlite: writes(790) },
      read: { memory: { changes: 20_000, perSecond: 25_000, rounds: [25_000] }, sqlite: { changes: 20_000, perSecond: 19_000, rounds: [19_000] } },
      wake: { memory: { count: 200, p50Ms: 2, p99Ms: 50, maxMs: 60 }, sqlite: { count: 200, p50Ms: 3, p99Ms: 51, maxMs: 70 } },
    };
    const targets = checkTargets({ ...run(sample(160)), changes });
    expect(byName(targets, 'memory: create keeping its change')).toMatchObject({ measured: 0.8, threshold: '>= 0.8', met: true });
    expect(byName(targets, 'sqlite: delete keeping its change')).toMatchObject({ measured: 0.79, met: false });
    expect(byName(targets, 'memory: the changes feed read')).toMatchObject({ measured: 25_000, met: true });
    expect(byName(targets, 'sqlite: the changes feed read')).toMatchObject({ measured: 19_000, met: false });
    expect(byName(targets, 'memory: a long poll answered')).toMatchObject({ measured: 50, threshold: '<= 50', met: true });
    expect(byName(targets, 'sqlite: a long poll answered')).toMatchObject({ met: false });
    const unrecorded = checkTargets({ ...run(sample(160)), changes: { ...changes, recording: undefined, recordingNote: 'not run' } });
    expect(byName(unrecorded, 'memory: update keeping its change')).toMatchObject({ measured: null, met: null });
  });

  it('holds webhooks to 1 s p99 at 200 changes a second, a backlog to 2,000 changes a second, and finds beside a hanging receiver to 1.1', () => {
    const webhooks = {
      latency: { memory: { perSecond: 200, count: 4000, p50Ms: 2, p99Ms: 1000, maxMs: 1200 }, sqlite: { perSecond: 200, count: 4000, p50Ms: 3, p99Ms: 1001, maxMs: 1300 } },
      drain: { memory: { changes: 100_000, seconds: 50, perSecond: 2000 }, sqlite: { changes: 100_000, seconds: 51, perSecond: 1960 } },
      isolation: { find: { without: summary(1000, 10), hanging: summary(1000, 11) } },
    };
    const targets = checkTargets({ ...run(sample(160)), webhooks });
    expect(byName(targets, 'memory: a webhook delivered at 200 changes/s')).toMatchObject({ measured: 1000, threshold: '<= 1000', met: true });
    expect(byName(targets, 'sqlite: a webhook delivered')).toMatchObject({ measured: 1001, met: false });
    expect(byName(targets, 'memory: a webhook backlog of 100000 changes')).toMatchObject({ measured: 2000, threshold: '>= 2000', met: true });
    expect(byName(targets, 'sqlite: a webhook backlog')).toMatchObject({ measured: 1960, met: false });
    expect(byName(targets, 'memory: find p99 beside a webhook receiver')).toMatchObject({ measured: 1.1, threshold: '<= 1.1', met: true });
    const slowed = { ...webhooks, isolation: { find: { without: summary(1000, 10), hanging: summary(1000, 11.5) } } };
    expect(byName(checkTargets({ ...run(sample(160)), webhooks: slowed }), 'memory: find p99 beside')).toMatchObject({ met: false });
    const memoryOnly = { ...webhooks, latency: { memory: webhooks.latency.memory }, drain: { memory: webhooks.drain.memory }, isolation: {} };
    const withoutSqlite = checkTargets({ ...run(sample(160)), webhooks: memoryOnly });
    expect(byName(withoutSqlite, 'sqlite: a webhook')).toBeUndefined();
    expect(byName(withoutSqlite, 'memory: find p99 beside')).toMatchObject({ measured: null, met: null });
  });
});
