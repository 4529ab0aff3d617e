import { type Summary } from './compare.js';
import { type Results } from './results.js';
import { type Target } from './targets.js';
import { OPERATIONS } from './workloads.js';

/** The servers of the throughput scenario, in the order the table lists them. */
const SERVERS: readonly (readonly [string, string])[] = [
  ['app', 'app on memory'],
  ['sqlite', 'app on SQLite'],
  ['d', '(d) NestJS on Express'],
  ['e', '(e) NestJS on Fastify'],
  ['a', '(a) bare node:http'],
];

/** The throughput table: one row per operation and server. */
export function operationRows(results: Pick<Results, 'throughput'>): string[][] {
  const header = ['operation', 'server', 'req/s', 'p50 ms', 'p99 ms', 'peak RSS MB', 'server CPU µs a request', 'non-2xx', 'gen CPU %'];
  const rows = OPERATIONS.flatMap((op) =>
    SERVERS.flatMap(([key, name]) => {
      const summary = results.throughput.comparison[op]?.[key];
      return summary === undefined ? [] : [[op, name, ...measures(summary)]];
    }),
  );
  return [header, ...rows];
}

function measures(summary: Summary): string[] {
  return [
    Math.round(summary.reqPerSec).toString(),
    fixed(summary.p50Ms, 2),
    fixed(summary.p99Ms, 2),
    fixed(summary.peakRssMb, 0),
    fixed(summary.cpuUsPerRequest, 0),
    String(summary.non2xx + summary.errors),
    summary.generatorCpuPct.toFixed(0),
  ];
}

export function targetRows(results: Pick<Results, 'targets'>): string[][] {
  return [['target', 'measured', 'threshold', 'met'], ...results.targets.map((t) => [t.name, formatMeasured(t.measured), t.threshold ?? '', formatMet(t)])];
}

/** The figure as the tables print it: ratios to two places, larger numbers to one. */
function formatMeasured(value: number | null): string {
  if (value === null) return 'not run';
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/** yes, NO, `report` or `not run`, for the tables. */
export function formatMet(t: Target): string {
  if (t.threshold === null) return 'report';
  if (t.met === null) return 'not run';
  return t.met ? 'yes' : 'NO';
}

/** Columns padded to line up in a terminal. */
export function textTable(rows: readonly string[][]): string {
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n');
}

function markdownTable(rows: readonly string[][]): string {
  const [head = [], ...body] = rows;
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...body.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

/** results.md, made from results.json's contents alone: the machine, the settings, the targets and the throughput table. */
export function markdownReport(results: Results): string {
  const { meta, soak, throughput } = results;
  const m = meta.machine;
  const missed = results.targets.filter((t) => t.met === false).length;
  const unmeasured = results.targets.filter((t) => t.threshold !== null && t.met === null).length;
  const { find, create } = throughput.findsBesideCreates;
  return [
    `# Benchmark results (${meta.mode} run, ${meta.date})`,
    '',
    ...(meta.mode === 'full' ? [] : ['**Not a measurement**: a short run that checks the harness; numbers are noise.', '']),
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, ${m.os}, Node ${m.node}, commit ${m.commit ?? 'unknown'}; ` +
      `load average ${m.loadAtStart.toFixed(2)} at the start. Servers on core 0, load generator on core 1: ${meta.pinned ? 'yes' : 'no'}.`,
    '',
    `Settings: ${meta.rounds} round(s) of ${meta.roundSeconds} s per server and operation after a ${meta.warmupSeconds} s warm-up, ` +
      `servers taken in turn each round; ${meta.connections} connections; ${meta.seedRecords} records seeded. ` +
      `The app: NODE_ENV=production, logs and metrics at their defaults (/metrics ${throughput.appMetrics ? 'served' : 'not served'}). ` +
      `The run took ${Math.round(meta.tookSeconds / 60)} min. How it measures: [README.md](README.md); every figure: results.json.`,
    '',
    `## Targets: ${missed} missed, ${unmeasured} not run`,
    '',
    markdownTable(targetRows(results)),
    '',
    '## Throughput (medians over rounds; peak RSS is the largest seen)',
    '',
    markdownTable(operationRows(results)),
    '',
    `SQLite, finds paced beside creates: finds p50 ${fixed(find.p50Ms, 2)} ms, p99 ${fixed(find.p99Ms, 2)} ms (${Math.round(find.reqPerSec)}/s); ` +
      `creates ${Math.round(create.reqPerSec)}/s, p99 ${fixed(create.p99Ms, 2)} ms.`,
    '',
    `Soak: ${soak.seconds} s at ${soak.rate} req/s on the memory store, ${soak.sample.requests} requests, p99 ${fixed(soak.sample.p99Ms, 2)} ms; ` +
      `heap after a full collection ${fixed(soak.liveHeapStartMb, 1)} MB at the start, ${fixed(soak.liveHeapEndMb, 1)} MB at the end.`,
    '',
  ].join('\n');
}

function fixed(value: number | undefined, digits: number): string {
  return value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(digits);
}
