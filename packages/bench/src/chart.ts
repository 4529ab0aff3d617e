import { ratio, type Results } from './results.js';
import { sweepLatency } from './report.js';
import { barPanel, linePanel, svgDocument, type Series } from './svg.js';
import { OPERATIONS } from './workloads.js';

const BLUE = '#3b6fb6';
const ORANGE = '#e08a2c';
const GREEN = '#3a9a5b';
const PURPLE = '#8a5cb8';
const GREY = '#7a7a7a';

/** One SVG: the app's ratios to the baselines per operation, and list latency by page and collection size. */
export function resultsChart(results: Results): string {
  const memory = results.memory.comparison;
  const mongo = results.mongodb?.comparison;
  const sqlite = results.sqlite?.comparison;
  const ratios = barPanel({
    x: 0, y: 0, width: 900, height: 320,
    title: 'app req/s as a fraction of each baseline (higher is better)',
    yLabel: 'app / baseline',
    labels: [...OPERATIONS],
    series: withData([
      { name: 'memory: app/(a) node:http', color: BLUE, values: OPERATIONS.map((op) => ratio(memory, op, 'a')) },
      { name: 'memory: app/(b) Express + Map', color: ORANGE, values: OPERATIONS.map((op) => ratio(memory, op, 'b')) },
      { name: 'memory: app/(d) NestJS on Express', color: PURPLE, values: OPERATIONS.map((op) => ratio(memory, op, 'd')) },
      { name: 'mongodb: app/(c) Express + driver', color: GREEN, values: OPERATIONS.map((op) => ratio(mongo, op, 'c')) },
      { name: 'sqlite: app / the app on memory', color: GREY, values: OPERATIONS.map((op) => ratio(sqlite, op, 'memory')) },
    ]),
    marks: [{ value: 0.7, label: 'list target vs (b): 0.7' }, { value: 0.85, label: 'find target vs (b): 0.85' }],
  });
  const beside = (key: string, name: string, color: string): Series[] => {
    const points = results.sweeps.memory.beside?.[key] ?? [];
    return [
      { name: `${name} p50`, color, values: points.map((point) => point.sample.p50Ms) },
      { name: `${name} p99`, color, dashed: true, values: points.map((point) => point.sample.p99Ms) },
    ];
  };
  const pageBaseline = [...beside('b', '(b)', ORANGE), ...beside('sqlite', 'sqlite', GREY)];
  const latency = (axis: 'pageSize' | 'collectionSize', x: number, title: string, labels: string[], extra: readonly Series[] = []) =>
    linePanel({
      x, y: 330, width: 450, height: 300, title, yLabel: 'latency, ms (log scale)', labels, logY: true,
      series: withData([
        { name: 'memory p50', color: BLUE, values: sweepLatency(results.sweeps.memory, axis, 'p50Ms') },
        { name: 'memory p99', color: BLUE, dashed: true, values: sweepLatency(results.sweeps.memory, axis, 'p99Ms') },
        { name: 'mongodb p50', color: GREEN, values: sweepLatency(results.sweeps.mongodb, axis, 'p50Ms') },
        { name: 'mongodb p99', color: GREEN, dashed: true, values: sweepLatency(results.sweeps.mongodb, axis, 'p99Ms') },
        ...extra,
      ]),
    });
  const pageLabels = results.sweeps.memory.pageSize.map((p) => `limit ${p.limit}`);
  const sizeLabels = results.sweeps.memory.collectionSize.map((p) => `${p.records / 1000}k, skip ${p.skip}`);
  return svgDocument(900, 650, [
    ratios,
    latency('pageSize', 0, `list latency by page size (${results.sweeps.memory.pageSize[0]?.records ?? 0} records)`, pageLabels, pageBaseline),
    latency('collectionSize', 450, 'list latency by collection size (last page of 100)', sizeLabels),
  ]);
}

/** The series that have something to draw (MongoDB's are empty when it was not run). */
function withData(series: readonly Series[]): Series[] {
  return series.filter((s) => s.values.some((value) => value !== undefined));
}
