import { describe, expect, it } from 'vitest';
import { type ScaleResult } from './at-scale.js';
import { type Comparison, type Summary } from './compare.js';
import { type FollowersResult } from './followers.js';
import { type Sample } from './load.js';
import { formatMet } from './report.js';
import { type Measured } from './results.js';
import { type SoakResult } from './soak.js';
import { checkTargets, target } from './targets.js';

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
    const row = target('sqlite find', undefined, { atLeast: 0.6 });
    expect([row.measured, row.met, formatMet(row)]).toEqual([null, null, 'not run']);
    expect(target('nan', Number.NaN, { atLeast: 0 }).met).toBeNull();
  });
});

const sample = (reqPerSec: number, p50Ms = 1, p99Ms = 2): Sample => ({
  requests: reqPerSec, seconds: 1, reqPerSec, p50Ms, p99Ms, non2xx: 0, errors: 0, peakRssMb: 100, generatorCpuPct: 50, serverCpuMs: reqPerSec / 20,
});
const summary = (reqPerSec: number, p99Ms = 2, cpuUsPerRequest?: number): Summary => {
  const s = sample(reqPerSec, 1, p99Ms);
  return { ...s, cpuUsPerRequest, rounds: [s] };
};
const soak: SoakResult = {
  seconds: 5, rate: 1000, sample: sample(1000), liveHeapStartMb: 20, liveHeapEndMb: 22,
};

/** The app on memory at 1000 req/s on every operation, the others at the rates given; every other figure within its target. */
function throughput(rates: { d?: number; e?: number; sqlite?: number } = {}, byOp: Comparison = {}): Measured['throughput'] {
  const comparison: Comparison = {};
  for (const op of ['find', 'update', 'list', 'create', 'delete'] as const) {
    comparison[op] = { app: summary(1000, 2, 40), d: summary(rates.d ?? 900), e: summary(rates.e ?? 1100), ...byOp[op] };
    if (op !== 'update') comparison[op] = { ...comparison[op], sqlite: summary(rates.sqlite ?? 700, 2, 60) };
    if (op === 'find' || op === 'list') comparison[op] = { ...comparison[op], a: summary(3000, 1, 10) };
  }
  return { comparison, appMetrics: true, findsBesideCreates: { find: summary(2000, 4), create: summary(1000) } };
}

function scale(overrides: Partial<ScaleResult> = {}): ScaleResult {
  const page = sample(2000, 0.4, 1);
  const beside = { find: sample(200, 1, 5), live: sample(50, 1, 6), load: sample(100, 10, 30) };
  return {
    records: 100_000,
    search: { rare: sample(50, 20, 30), common: sample(500, 2, 3) },
    firstPages: { createdAt: page, value: sample(2000, 0.5, 1) },
    deepPage: { depth: 99_900, first: sample(2000, 0.5, 1), deep: sample(2000, 0.6, 1) },
    counted: { plain: { without: sample(2000, 0.4, 1), with: sample(2000, 0.44, 1) }, sorted: { without: sample(2000, 0.5, 1), with: sample(2000, 0.55, 1) } },
    beside: { deepPages: beside, searches: { ...beside, find: sample(200, 1, 7) } },
    ...overrides,
  };
}

/** The followers phase at the size: 50 creates in 200 ms with none held, 600 ms with the streams, 100 MB of RSS for 4,000 followers. */
function followers(overrides: Partial<FollowersResult> = {}): FollowersResult {
  return { streams: 2000, polls: 2000, creates: 50, noneMs: 200, streamsMs: 600, bothMs: 1000, missed: 0, rssNoneMb: 100, rssStreamsMb: 150, rssBothMb: 200, bare: { noneMs: 50, streamsMs: 250, rssNoneMb: 60, rssStreamsMb: 95 }, ...overrides };
}

/** A run in which every part ran, each figure as given. */
function run(parts: Partial<Measured> = {}): Measured {
  return {
    meta: { date: '', mode: 'quick', rounds: 1, roundSeconds: 1, warmupSeconds: 0, connections: 50, seedRecords: 100, pinned: false, tookSeconds: 1,
      machine: { cpu: 'x', cores: 2, memoryGb: 1, os: 'x', node: 'v26.0.0', commit: undefined, loadAtStart: 0 } },
    throughput: throughput(),
    soak,
    scale: scale(),
    changes: { read: { changes: 20_000, perSecond: 25_000, rounds: [25_000] }, wake: { count: 200, p50Ms: 2, p99Ms: 9, maxMs: 12 } },
    webhooks: {
      latency: { perSecond: 200, count: 4000, p50Ms: 2, p99Ms: 7, maxMs: 20 },
      drain: { changes: 100_000, seconds: 40, perSecond: 2500 },
      isolation: { find: { without: summary(1000, 10), hanging: summary(1000, 10.5) } },
    },
    followers: followers(),
    history: { changes: 10_000, clients: 48, limit: 1000, pages: 10, live: sample(100, 1, 8), walks: sample(60, 400, 900), longestBlockMs: 4 },
    ...parts,
  };
}

const byName = (targets: ReturnType<typeof checkTargets>, name: string) => targets.find((t) => t.name.startsWith(name));

describe('checkTargets', () => {
  it('meets every target on a run whose every figure is within it', () => {
    const targets = checkTargets(run());
    expect(targets.filter((t) => t.threshold !== null && t.met !== true)).toEqual([]);
    expect(targets.filter((t) => t.threshold !== null)).toHaveLength(4 + 4 + 6 + 5 + 3 + 1 + 4);
  });

  it('holds the app on memory to 1.0 of NestJS on Express on find, list of 100, create and update, and reports NestJS on Fastify', () => {
    const even = checkTargets(run({ throughput: throughput({ d: 1000, e: 1250 }) }));
    const names = ['find', 'list of 100', 'create', 'update'].map((op) => `peers: ${op}, app on memory / (d) NestJS on Express`);
    expect(names.map((name) => byName(even, name))).toEqual(names.map((name) => ({ name, measured: 1, threshold: '>= 1', met: true })));
    expect(byName(even, 'peers: create, app on memory / (e)')).toMatchObject({ measured: 0.8, threshold: null, met: null });
    const slower = checkTargets(run({ throughput: throughput({}, { update: { d: summary(1010) } }) }));
    expect([byName(slower, 'peers: update, app on memory / (d)')?.met, byName(slower, 'peers: find, app on memory / (d)')?.met]).toEqual([false, true]);
  });

  it('reports the server\'s CPU a request of find and list of 100 on the app on each store and bare node:http, with no verdict', () => {
    const rows = checkTargets(run()).filter((t) => t.name.startsWith('cpu: '));
    expect(rows.map((t) => [t.name, t.measured, t.met])).toEqual([
      ['cpu: find, app on memory, µs a request', 40, null],
      ['cpu: find, app on SQLite, µs a request', 60, null],
      ['cpu: find, (a) bare node:http, µs a request', 10, null],
      ['cpu: list of 100, app on memory, µs a request', 40, null],
      ['cpu: list of 100, app on SQLite, µs a request', 60, null],
      ['cpu: list of 100, (a) bare node:http, µs a request', 10, null],
    ]);
  });

  it('holds SQLite to 0.6 of the memory store on find, list of 100 and create, and its find p99 beside creates to 10 ms', () => {
    const met = checkTargets(run({ throughput: throughput({ sqlite: 600 }) }));
    expect(['find', 'list of 100', 'create'].map((op) => byName(met, `sqlite: ${op}, app on SQLite / on memory`))).toEqual(
      ['find', 'list of 100', 'create'].map((op) => ({ name: `sqlite: ${op}, app on SQLite / on memory`, measured: 0.6, threshold: '>= 0.6', met: true })),
    );
    expect(byName(met, 'sqlite: find p99 with 2000 finds/s beside 1000 creates/s')).toMatchObject({ measured: 4, threshold: '<= 10', met: true });
    const slow = throughput({ sqlite: 590 });
    const missed = checkTargets(run({ throughput: { ...slow, findsBesideCreates: { ...slow.findsBesideCreates, find: summary(2000, 10.1) } } }));
    expect(['sqlite: find, app', 'sqlite: list of 100, app', 'sqlite: create, app', 'sqlite: find p99'].map((name) => byName(missed, name)?.met)).toEqual([false, false, false, false]);
  });

  it('computes issue 28\'s six targets on SQLite from the slowest of each kind of read', () => {
    const targets = checkTargets(run()).filter((t) => t.name.startsWith('sqlite at 100,000 records'));
    expect(targets.map((t) => [t.name.split(': ')[1]?.split(',')[0], t.measured, t.threshold])).toEqual([
      ['a search (q)', 20, '<= 25'],
      ['the first page of 100 of any sort', 0.5, '<= 10'],
      ['the page at depth 99', 1.2, '<= 1.5'],
      ['a page with count=true / without', 1.1, '<= 1.2'],
      ['find p99 beside 16 connections of deep pages or searches', 7, '< 20'],
      ['/health/live p99 beside 16 connections of deep pages or searches', 6, '< 20'],
    ].map(([name, measured, threshold]) => [name, expect.closeTo(measured as number) as unknown, threshold]));
    const beside = scale().beside;
    const starved = checkTargets(run({ scale: scale({ beside: { ...beside, deepPages: { ...beside.deepPages, live: sample(50, 1, 20) } } }) }));
    expect(byName(starved, 'sqlite at 100,000 records: /health/live p99')).toMatchObject({ measured: 20, met: false });
    expect(checkTargets(run({ scale: undefined })).some((t) => t.name.startsWith('sqlite at '))).toBe(false);
  });

  it('holds the feed to 20,000 changes a second, a long poll to 50 ms, webhooks to 1 s and 2,000 a second, and finds beside a hanging receiver to 1.1', () => {
    const names = ['sqlite: the changes feed', 'sqlite: a long poll', 'sqlite: a webhook delivered', 'sqlite: a webhook backlog', 'sqlite: find p99 beside a webhook receiver'];
    expect(names.map((name) => byName(checkTargets(run()), name)?.met)).toEqual([true, true, true, true, true]);
    const slow = run({
      changes: { read: { changes: 20_000, perSecond: 19_000, rounds: [19_000] }, wake: { count: 200, p50Ms: 2, p99Ms: 51, maxMs: 60 } },
      webhooks: {
        latency: { perSecond: 200, count: 4000, p50Ms: 2, p99Ms: 1001, maxMs: 1300 },
        drain: { changes: 100_000, seconds: 51, perSecond: 1960 },
        isolation: { find: { without: summary(1000, 10), hanging: summary(1000, 11.5) } },
      },
    });
    const missed = checkTargets(slow);
    expect(names.map((name) => byName(missed, name)?.met)).toEqual([false, false, false, false, false]);
    expect(byName(missed, 'sqlite: a webhook backlog of 100,000 changes drained')).toMatchObject({ measured: 1960, threshold: '>= 2000' });
  });

  it('holds /health/live p99 beside 48 clients walking a history of 10,000 changes to under 50 ms', () => {
    const name = 'sqlite: /health/live p99 beside 48 clients walking the history of a record with 10,000 changes';
    expect(byName(checkTargets(run()), name)).toMatchObject({ name: `${name} in pages of 1000, ms`, measured: 8, threshold: '< 50', met: true });
    const stalled = run({ history: { ...run().history, live: sample(100, 1, 50) } });
    expect(byName(checkTargets(stalled), name)).toMatchObject({ measured: 50, met: false });
  });

  it('reports the server CPU a history page and the longest event-loop delay beside the walks, with no bound', () => {
    const walks = { ...sample(60, 400, 900), requests: 600, serverCpuMs: 6000 };
    const targets = checkTargets(run({ history: { ...run().history, walks } }));
    expect(byName(targets, 'sqlite: server CPU a history page of 1000 beside 48 clients')).toMatchObject({ measured: 10, threshold: null });
    expect(byName(targets, 'sqlite: the longest event-loop delay beside 48 clients')).toMatchObject({ measured: 4, threshold: null });
    const unread = checkTargets(run({ history: { ...run().history, longestBlockMs: undefined } }));
    expect(byName(unread, 'sqlite: the longest event-loop delay')).toMatchObject({ measured: null });
  });

  it('checks the soak for a leak by the heap after a full collection, and the memory app\'s RSS in the find run', () => {
    expect(byName(checkTargets(run()), 'soak: live heap growth')).toMatchObject({ measured: 2, threshold: '< 10', met: true });
    expect(byName(checkTargets(run({ soak: { ...soak, liveHeapEndMb: 35 } })), 'soak: live heap growth')).toMatchObject({ measured: 15, met: false });
    const heavy = { ...sample(1000), peakRssMb: 150 };
    const rss = checkTargets(run({ throughput: throughput({}, { find: { app: { ...summary(1000), peakRssMb: 150, rounds: [heavy] } } }) }));
    expect(byName(rss, 'memory: app RSS in the find run')).toMatchObject({ measured: 150, threshold: '< 150', met: false });
  });

  it('counts every non-2xx and error against zero: the comparisons, the paced loads, the scale scenario, the isolation runs, the history walks and the soak', () => {
    const every = (measured: Measured) => byName(checkTargets(measured), 'every run, the soak included: non-2xx')?.measured;
    const failing = (non2xx: number): Summary => ({ ...summary(1000), rounds: [{ ...sample(1000), non2xx }] });
    const base = throughput();
    expect(every(run())).toBe(0);
    expect(every(run({ throughput: throughput({}, { list: { e: failing(3) } }) }))).toBe(3);
    expect(every(run({ throughput: { ...base, findsBesideCreates: { ...base.findsBesideCreates, create: failing(4) } } }))).toBe(4);
    expect(every(run({ scale: scale({ search: { rare: { ...sample(50), errors: 2 }, common: sample(50) } }) }))).toBe(2);
    expect(every(run({ webhooks: { ...run().webhooks, isolation: { find: { without: failing(1), hanging: summary(1000) } } } }))).toBe(1);
    expect(every(run({ soak: { ...soak, sample: { ...sample(1000), non2xx: 5 } } }))).toBe(5);
    expect(every(run({ history: { ...run().history, walks: { ...sample(60), non2xx: 6 } } }))).toBe(6);
    expect(every(run({ history: { ...run().history, live: { ...sample(100), errors: 7 } } }))).toBe(7);
    const silent = checkTargets(run({ soak: { ...soak, sample: { ...sample(0), requests: 0 } } }));
    expect(byName(silent, 'every run: runs that got no answer')).toMatchObject({ measured: 1, met: false });
  });
});

describe('the followers targets', () => {
  it('hold creates with 2,000 streams to 4x, every follower to every change and a follower to its memory bound, and report the time a stream adds', () => {
    const targets = checkTargets(run());
    expect(byName(targets, 'sqlite: 50 sequential creates with 2,000 event streams held / with none')).toMatchObject({ measured: 3, met: true });
    // (600 - 200) ms over 50 creates and 2,000 streams: 4 µs a change and stream.
    expect(byName(targets, 'sqlite: the time a change adds per held event stream')).toMatchObject({ measured: 4, met: null });
    expect(byName(targets, '(a) bare node:http: the time a change adds per held event stream')).toMatchObject({ measured: 2, met: null });
    // 100 MB over 4,000 followers.
    expect(byName(targets, 'sqlite: memory a held follower costs')).toMatchObject({ measured: 25.6, met: true });
    const missed = checkTargets(run({ followers: followers({ streamsMs: 801, missed: 1, rssBothMb: 240 }) }));
    expect(['sqlite: 50 sequential creates with 2,000 event streams held', 'sqlite: followers held', 'sqlite: memory a held follower'].map((name) => byName(missed, name)?.met)).toEqual([false, false, false]);
  });
});
