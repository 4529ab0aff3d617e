import { describe, expect, it } from 'vitest';
import { type Summary } from './compare.js';
import { type Sample } from './load.js';
import { markdownReport, operationRows } from './report.js';
import { type Results } from './results.js';
import { target } from './targets.js';

const sample = (reqPerSec: number): Sample => ({
  requests: reqPerSec, seconds: 1, reqPerSec, p50Ms: 1, p99Ms: 2, non2xx: 0, errors: 0, peakRssMb: 100, generatorCpuPct: 50, serverCpuMs: 1,
});
const summary = (reqPerSec: number, cpuUsPerRequest?: number): Summary => ({ ...sample(reqPerSec), cpuUsPerRequest, rounds: [sample(reqPerSec)] });

const throughput = {
  appMetrics: true,
  comparison: { find: { a: summary(3000, 9.6), sqlite: summary(700, 61), app: summary(1000, 40.4), d: summary(900) }, create: { app: summary(500) } },
  findsBesideCreates: { find: summary(2000), create: summary(1000) },
};

describe('operationRows', () => {
  it('lists each operation\'s servers, the app on each store first, with the server\'s CPU a request', () => {
    const rows = operationRows({ throughput });
    expect(rows[0]?.[6]).toBe('server CPU µs a request');
    expect(rows.slice(1).map((row) => [row[0], row[1], row[2], row[6]])).toEqual([
      ['find', 'app on memory', '1000', '40'],
      ['find', 'app on SQLite', '700', '61'],
      ['find', '(d) NestJS on Express', '900', 'n/a'],
      ['find', '(a) bare node:http', '3000', '10'],
      ['create', 'app on memory', '500', 'n/a'],
    ]);
  });
});

describe('markdownReport', () => {
  const results = {
    meta: { date: '2026-12-03T00:00:00.000Z', mode: 'quick', rounds: 1, roundSeconds: 2, warmupSeconds: 1, connections: 50, seedRecords: 1000, pinned: true, tookSeconds: 200,
      machine: { cpu: 'x', cores: 2, memoryGb: 1, os: 'Linux', node: 'v26.0.0', commit: 'abc1234', loadAtStart: 0.5 } },
    throughput,
    soak: { seconds: 5, rate: 1000, sample: sample(1000), liveHeapStartMb: 20, liveHeapEndMb: 21 },
    targets: [target('met', 1, { atLeast: 1 }), target('missed', 0.5, { atLeast: 1 }), target('not run', undefined, { atMost: 1 }), target('reported', 3, 'report')],
  } as unknown as Results;

  it('is made from what results.json holds: the same report from the file read back', () => {
    const readBack = JSON.parse(JSON.stringify(results)) as Results;
    expect(markdownReport(readBack)).toBe(markdownReport(results));
  });

  it('says a quick run measures nothing, and counts the targets missed and not run above their table', () => {
    const report = markdownReport(results);
    expect(report).toContain('**Not a measurement**');
    expect(report).toContain('## Targets: 1 missed, 1 not run');
    expect(report).toContain('| missed | 0.50 | >= 1 | NO |');
    expect(report).toContain('| reported | 3 |  | report |');
    expect(markdownReport({ ...results, meta: { ...results.meta, mode: 'full' } })).not.toContain('Not a measurement');
  });
});
