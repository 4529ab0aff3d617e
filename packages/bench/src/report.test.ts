import { describe, expect, it } from 'vitest';
import { type Summary } from './compare.js';
import { type Sample } from './load.js';
import { mainRows, sweepRows } from './report.js';
import { type Results } from './results.js';
import { otherNode } from './runtime.js';

const sample = (reqPerSec: number): Sample => ({
  requests: reqPerSec, seconds: 1, reqPerSec, p50Ms: 1, p99Ms: 2, non2xx: 0, errors: 0, peakRssMb: 100, generatorCpuPct: 50,
});
const summary = (reqPerSec: number): Summary => ({ ...sample(reqPerSec), rounds: [sample(reqPerSec)] });

describe('mainRows', () => {
  it('names the app by its Node when it also ran on another, and the peers by what they are', () => {
    const memory = { appMetrics: true, runtime: { own: '24.21.0', other: '26.10.0' }, comparison: { find: { d: summary(1), app: summary(2), runtime: summary(3) } } };
    const servers = mainRows({ memory, sweeps: { memory: { pageSize: [], collectionSize: [] } } } as unknown as Results).slice(1).map((row) => row[2]);
    expect(servers).toEqual(['(d) NestJS on Express', 'app on Node 24.21.0', 'app on Node 26.10.0']);
  });

  it('names the app with neither request log nor metrics by its settings, and gives it the app\'s ratios to the baselines', () => {
    const memory = { appMetrics: true, comparison: { find: { b: summary(400), app: summary(200), quiet: summary(300) } } };
    const rows = mainRows({ memory, sweeps: { memory: { pageSize: [], collectionSize: [] } } } as unknown as Results).slice(1);
    expect(rows.map((row) => [row[2], row[10]])).toEqual([
      ['(b) Express + Map', ''],
      ['app', '0.50'],
      ['app, LOG_LEVEL=warn, METRICS=off', '0.75'],
    ]);
  });

  it('gives the app before search and sort the app\'s ratios to the baselines, under its build\'s name', () => {
    const memory = { appMetrics: true, listBefore: 'app-at-30c5742', comparison: { delete: { b: summary(400), app: summary(200), listBefore: summary(380) } } };
    const rows = mainRows({ memory, sweeps: { memory: { pageSize: [], collectionSize: [] } } } as unknown as Results).slice(1);
    expect(rows.map((row) => [row[2], row[10]])).toEqual([
      ['(b) Express + Map', ''],
      ['app', '0.50'],
      ['app before search and sort (app-at-30c5742)', '0.95'],
    ]);
  });
});

describe('sweepRows', () => {
  it('lists the pages measured beside the app under their own server', () => {
    const point = (limit: number, reqPerSec: number) => ({ records: 1000, skip: 0, limit, sample: sample(reqPerSec) });
    const sweeps = { memory: { pageSize: [point(1000, 100)], collectionSize: [], beside: { b: [point(1000, 300)] } }, mongodb: undefined };
    expect(sweepRows(sweeps).slice(1).map((row) => [row[1], row[4], row[5]])).toEqual([['app', '1000', '100'], ['(b) Express + Map', '1000', '300']]);
  });
});

describe('otherNode', () => {
  it('does not run the app twice on the Node the bench runs on', () => {
    expect(otherNode(process.versions.node.split('.')[0] ?? '')).toEqual({ note: expect.stringContaining('the bench itself runs on Node') as unknown });
  });
});
