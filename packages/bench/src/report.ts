import { QUIET, settingsText } from './app.js';
import { EXPENSIVE, SCALE_SORTS, SEARCHES, type ScaleResult } from './at-scale.js';
import { type ChangesResult } from './change-feed.js';
import { type Summary } from './compare.js';
import { type Sample } from './load.js';
import { DURING_CREATES, MONGODB_LISTS, type ScenarioResult } from './scenarios.js';
import { ratio, type Results } from './results.js';
import { formatMeasured, formatMet } from './targets.js';
import { type Sweep, type SweepPoint } from './sweeps.js';
import { OPERATIONS } from './workloads.js';

const SERVERS: Record<string, string> = {
  a: '(a) node:http',
  b: '(b) Express + Map',
  c: '(c) Express + driver',
  d: '(d) NestJS on Express',
  e: '(e) NestJS on Fastify',
  app: 'app',
  memory: 'app on the memory store',
  full: 'app, SQLITE_SYNCHRONOUS=full',
  quiet: `app, ${settingsText(QUIET)}`,
};

const HEADER = [
  'storage', 'operation', 'server', 'req/s', 'p50 ms', 'p99 ms', 'peak RSS MB', 'non-2xx', 'gen CPU %',
  'app/(a)', 'app/(b)', 'app/(c)', '/memory app',
];

/** The servers whose rows fill the app's ratio columns: the app and the app in another configuration or build. */
const APP_COLUMNS = new Set(['app', 'quiet', 'listBefore']);

/** The main table: one row per storage, operation and server. */
export function mainRows(results: Results): string[][] {
  const rows: string[][] = [];
  const scenarios = [['memory', results.memory], ['sqlite', results.sqlite], ['mongodb', results.mongodb]] as const;
  for (const [storage, scenario] of scenarios) {
    if (scenario === undefined) continue;
    for (const op of OPERATIONS) {
      const byServer = scenario.comparison[op] ?? {};
      for (const key of ['a', 'b', 'c', 'd', 'e', 'memory', 'app', 'full', 'quiet', 'runtime', 'listBefore']) {
        const summary = byServer[key];
        if (summary === undefined) continue;
        // The quiet app and the app before search and sort share the app's columns, so each reads beside it against (b).
        const ratios = APP_COLUMNS.has(key) ? ['a', 'b', 'c'].map((base) => fixed(ratio(scenario.comparison, op, base, key), 2)) : ['', '', ''];
        const toMemory = key === 'app' || key === 'full' ? fixed(ratio(scenario.comparison, op, 'memory', key), 2) : '';
        const name = nameOf(key, scenario);
        rows.push([storage, op, name, ...measures(summary), ...ratios, toMemory]);
      }
    }
  }
  return [HEADER, ...rows];
}

/** A server's name in the main table; the app's runs on other Nodes and other builds named by what differs. */
function nameOf(key: string, scenario: ScenarioResult): string {
  if (key === 'runtime') return `app on Node ${scenario.runtime?.other ?? '?'}`;
  if (key === 'app' && scenario.runtime !== undefined) return `app on Node ${scenario.runtime.own}`;
  if (key === 'listBefore') return `app before search and sort (${scenario.listBefore ?? '?'})`;
  return SERVERS[key] ?? key;
}

function measures(summary: Summary): string[] {
  return [
    Math.round(summary.reqPerSec).toString(),
    fixed(summary.p50Ms, 2) || 'n/a',
    fixed(summary.p99Ms, 2) || 'n/a',
    fixed(summary.peakRssMb, 0),
    String(summary.non2xx + summary.errors),
    summary.generatorCpuPct.toFixed(0),
  ];
}

export function sweepRows(sweeps: Results['sweeps']): string[][] {
  const rows: string[][] = [['storage', 'server', 'records', 'skip', 'limit', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx']];
  for (const [storage, sweep] of [['memory', sweeps.memory], ['mongodb', sweeps.mongodb]] as const) {
    if (sweep === undefined) continue;
    const runs: [string, readonly SweepPoint[]][] = [['app', [...sweep.pageSize, ...sweep.collectionSize]], ...Object.entries(sweep.beside ?? {})];
    for (const [key, points] of runs) {
      for (const point of points) {
        const s = point.sample;
        rows.push([storage, SWEEP_SERVERS[key] ?? key, String(point.records), String(point.skip), String(point.limit), Math.round(s.reqPerSec).toString(),
          fixed(s.p50Ms, 2) || 'n/a', fixed(s.p99Ms, 2) || 'n/a', String(s.non2xx + s.errors)]);
      }
    }
  }
  return rows;
}

const SWEEP_SERVERS: Record<string, string> = { app: 'app', b: SERVERS.b ?? 'b', sqlite: 'app on SQLite (synchronous normal)' };

export function targetRows(results: Pick<Results, 'targets'>): string[][] {
  return [
    ['target', 'measured', 'threshold', 'met'],
    ...results.targets.map((t) => [t.name, formatMeasured(t.measured), t.threshold ?? '', formatMet(t)]),
  ];
}

/** Columns padded to line up in a terminal. */
export function textTable(rows: readonly string[][]): string {
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n');
}

export function markdownTable(rows: readonly string[][]): string {
  const [head = [], ...body] = rows;
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...body.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

/** results.md: the machine, the settings, the tables and the chart. */
export function markdownReport(results: Results, chartFile: string): string {
  const { meta, soak } = results;
  const m = meta.machine;
  const appConfig = `NODE_ENV=production, logs and metrics at their defaults (/metrics ${results.memory.appMetrics ? 'served' : 'not served'})`;
  return [
    `# Benchmark results (${meta.mode} run, ${meta.date})`,
    '',
    meta.mode === 'full' ? '' : '**Not a measurement**: a short run that checks the harness; numbers are noise.\n',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, ${m.os}, Node ${m.node}, commit ${m.commit ?? 'unknown'}; ` +
      `load average ${m.loadAtStart.toFixed(2)} at the start. Server on core 0, load generator on core 1: ${meta.pinned ? 'yes' : 'no'}.`,
    '',
    `Settings: ${meta.rounds} round(s) of ${meta.roundSeconds} s per server and operation after a ${meta.warmupSeconds} s warm-up, ` +
      `servers taken in turn each round; ${meta.connections} connections; ${meta.seedRecords} records seeded. ` +
      `App: ${appConfig}. The run took ${Math.round(meta.tookSeconds / 60)} min.`,
    '',
    `![ratios and list latency](${chartFile})`,
    '',
    '## Targets',
    '',
    markdownTable(targetRows(results)),
    '',
    '## Per operation (medians over rounds; peak RSS is the largest seen)',
    '',
    markdownTable(mainRows(results)),
    results.mongodbNote === undefined ? '' : `\nMongoDB: ${results.mongodbNote}`,
    results.mongodb?.server === undefined ? '' : `\nMongoDB server: ${results.mongodb.server}. (c) answers find with the driver's findOne and list of 100 with the same find, sort, skip and limit as the app. ${MONGODB_LISTS_NOTE}`,
    '',
    sqliteReport(results),
    scaleReport(results),
    results.changes === undefined ? '' : changesReport(results.changes),
    webhooksReport(results),
    '## List latency by page size and collection size',
    '',
    markdownTable(sweepRows(results.sweeps)),
    '',
    '## Soak',
    '',
    `${soak.seconds} s at ${soak.rate} req/s on the memory store (8 finds, then a create and the delete of what it made, per connection): ` +
      `${soak.sample.requests} requests, ${soak.sample.non2xx} non-2xx, ${soak.sample.errors} errors, p99 ${soak.sample.p99Ms.toFixed(2)} ms; ` +
      `RSS ${fixed(soak.rssStartMb, 1)} MB at the start, ${fixed(soak.rssEndMb, 1)} MB at the end, ` +
      `${fixed(Math.max(...soak.rssTrace), 1)} MB at most; heap after a full collection ${fixed(soak.liveHeapStartMb, 1)} MB at the start, ` +
      `${fixed(soak.liveHeapEndMb, 1)} MB at the end.`,
    '',
  ].join('\n');
}

const MONGODB_LISTS_NOTE =
  `Lists on MongoDB, the list of 100 and the sweep, run on ${MONGODB_LISTS.connections} connections and ${MONGODB_LISTS.collectionSizes.join(', ')} records: ` +
  'FerretDB sorts each page in its own code, over the whole collection (docs/benchmarks/README.md).';

/** Finding records at scale: one row per measure, a column per storage (p50 / p99, ms). */
function scaleReport(results: Results): string {
  const scale = results.scale;
  if (scale === undefined) return '';
  const stores: (readonly [string, ScaleResult])[] = scale.sqlite === undefined ? [['memory', scale.memory]] : [['memory', scale.memory], ['sqlite', scale.sqlite]];
  const missing = { p50Ms: Number.NaN, p99Ms: Number.NaN } as Sample;
  const cell = (sample: Sample): string => `${fixed(sample.p50Ms, 2)} / ${fixed(sample.p99Ms, 2)}`;
  const row = (name: string, pick: (found: ScaleResult) => Sample): string[] => [name, ...stores.map(([, found]) => cell(pick(found)))];
  const rows = [
    ['measure (p50 / p99, ms)', ...stores.map(([name]) => name)],
    row(`search q="${SEARCHES.rare}" (rare)`, (f) => f.search.rare),
    row(`search q="${SEARCHES.common}" (common)`, (f) => f.search.common),
    ...SCALE_SORTS.map((sort) => row(`first page of 100, sort=${sort}`, (f) => f.firstPages[sort] ?? missing)),
    row('sort=value, the first page', (f) => f.deepPage.first),
    row('sort=value, the page at the deepest depth through next', (f) => f.deepPage.deep),
    row('plain first page', (f) => f.counted.plain.without),
    row('plain first page with count=true', (f) => f.counted.plain.with),
    row('sort=value first page with count=true', (f) => f.counted.sorted.with),
    row('find beside 16 connections of deep pages', (f) => f.beside.deepPages.find),
    row('/health/live beside them', (f) => f.beside.deepPages.live),
    row('the deep pages themselves', (f) => f.beside.deepPages.load),
    row('find beside 16 connections of searches', (f) => f.beside.searches.find),
    row('/health/live beside them', (f) => f.beside.searches.live),
    row('the searches themselves', (f) => f.beside.searches.load),
  ];
  const how =
    `${scale.memory.records.toLocaleString('en')} work schedules and as many cost centers; one connection, one request after another ` +
    `for each latency; beside: ${EXPENSIVE.connections} connections sending the expensive read as fast as the app answers, finds paced at ` +
    `${EXPENSIVE.findsPerSecond} a second and /health/live at ${EXPENSIVE.livesPerSecond}.`;
  return ['## Finding records at scale', '', how, '', markdownTable(rows), '', ''].join('\n');
}

/** What keeping changes costs, and the feed's speed: a line per storage. */
export function changesReport(changes: ChangesResult): string {
  const stores = (['memory', 'sqlite'] as const).filter((storage) => changes.read[storage] !== undefined);
  const lines = stores.map((storage) => {
    const read = changes.read[storage];
    const wake = changes.wake[storage];
    const recorded = changes.recording?.[storage];
    const cost = (['create', 'update', 'delete'] as const)
      .map((op) => `${op} ${fixed(recorded?.[op]?.app?.reqPerSec, 0)} against ${fixed(recorded?.[op]?.before?.reqPerSec, 0)} req/s`)
      .join(', ');
    return (
      `- ${storage}: the feed read from its start in pages of 1000, ${fixed(read?.perSecond, 0)} changes/s over ${String(read?.changes ?? 0)} changes; ` +
      `a long poll answered after a write p50 ${fixed(wake?.p50Ms, 2)} ms, p99 ${fixed(wake?.p99Ms, 2)} ms (${String(wake?.count ?? 0)} writes); ` +
      (recorded === undefined ? `recording: ${changes.recordingNote ?? 'not run'}` : `writes keeping their change against the app before: ${cost}`)
    );
  });
  const how =
    'The app against the same app built before writes were kept as changes (`BENCH_BEFORE_APP`, made by `bash scripts/bench-before.sh`), ' +
    'each seeded alike and taken in turn each round; the feed read by one follower, one page after another; a long poll parked after the newest change, then a create sent, timed from the create\'s request to the poll\'s answer.';
  return ['## Changes: what keeping them costs, and the feed', '', how, '', ...lines, '', ''].join('\n');
}

/** How fast webhooks deliver, and whether a receiver that hangs slows the API: a line per measure. */
function webhooksReport(results: Results): string {
  const webhooks = results.webhooks;
  if (webhooks === undefined) return '';
  const stores = (['memory', 'sqlite'] as const).filter((storage) => webhooks.latency[storage] !== undefined);
  const lines = stores.map((storage) => {
    const latency = webhooks.latency[storage];
    const drain = webhooks.drain[storage];
    return (
      `- ${storage}: creates at ${String(latency?.perSecond ?? 0)}/s, each change at the receiver p50 ${fixed(latency?.p50Ms, 1)} ms, ` +
      `p99 ${fixed(latency?.p99Ms, 1)} ms, max ${fixed(latency?.maxMs, 1)} ms (${String(latency?.count ?? 0)} changes); ` +
      `a backlog of ${String(drain?.changes ?? 0)} changes drained in ${fixed(drain?.seconds, 1)} s, ${fixed(drain?.perSecond, 0)} changes/s`
    );
  });
  const find = webhooks.isolation.find;
  lines.push(
    `- memory: find p99 ${fixed(find?.hanging?.p99Ms, 2)} ms beside a receiver that never answers, ${fixed(find?.without?.p99Ms, 2)} ms without webhooks ` +
      `(${fixed(find?.hanging?.reqPerSec, 0)} against ${fixed(find?.without?.reqPerSec, 0)} req/s)`,
  );
  const how =
    'A receiver in the bench process answering 204 at once; creates paced, each timed from its request to its change\'s POST reaching the receiver; ' +
    'the backlog made while WEBHOOKS_FILE named no subscription, then one named and SIGHUP sent, timed until the receiver had every change; ' +
    'finds on two apps seeded alike and taken in turn each round, one delivering to a receiver that accepts the POST and never answers.';
  return ['## Webhooks: delivery, a backlog, a receiver that hangs', '', how, '', ...lines, '', ''].join('\n');
}

/** The reads-during-writes measure of the SQLite scenario, one line per synchronous mode. */
function sqliteReport(results: Results): string {
  const during = results.sqlite?.findsDuringCreates;
  if (during === undefined) return '';
  const line = (mode: 'memory' | 'normal' | 'full') =>
    `- ${mode === 'memory' ? 'the memory store, for what the load itself costs' : `\`SQLITE_SYNCHRONOUS=${mode}\``}: finds p50 ${fixed(during[mode].find.p50Ms, 2)} ms, p99 ${fixed(during[mode].find.p99Ms, 2)} ms ` +
    `(${Math.round(during[mode].find.reqPerSec)} req/s) while creates ran at ${Math.round(during[mode].create.reqPerSec)} req/s ` +
    `(p99 ${fixed(during[mode].create.p99Ms, 2)} ms)`;
  const alone = results.sqlite?.findsAlone;
  const aloneLine =
    alone === undefined
      ? []
      : [`- \`SQLITE_SYNCHRONOUS=normal\` with no creates, the same finds alone, for what the machine itself gives: finds p50 ${fixed(alone.p50Ms, 2)} ms, p99 ${fixed(alone.p99Ms, 2)} ms (${Math.round(alone.reqPerSec)} req/s)`];
  const { findsPerSecond, createsPerSecond, connections } = DURING_CREATES;
  const how =
    `Finds at ${findsPerSecond} a second while creates run at ${createsPerSecond} a second, ${connections} connections each, ` +
    'each request sent when due (evenly spaced, not in bursts) and timed from then; medians over the rounds, each taking the stores in turn.';
  return ['## SQLite: reads while writes go on', '', how, '', line('normal'), line('full'), line('memory'), ...aloneLine, '', ''].join('\n');
}

export function sweepLatency(sweep: Sweep | undefined, axis: 'pageSize' | 'collectionSize', which: 'p50Ms' | 'p99Ms'): (number | undefined)[] {
  return (sweep?.[axis] ?? []).map((point) => point.sample[which]);
}

function fixed(value: number | undefined, digits: number): string {
  return value === undefined || !Number.isFinite(value) ? '' : value.toFixed(digits);
}
