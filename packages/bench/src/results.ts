import { type Comparison, type Summary } from './compare.js';
import { type Machine } from './machine.js';
import { type ScenarioResult, type SqliteResult } from './scenarios.js';
import { type SoakResult } from './soak.js';
import { type Sweep } from './sweeps.js';
import { type Operation } from './workloads.js';

/** Everything one run found; written as results.json. */
export interface Results {
  readonly meta: {
    readonly date: string;
    readonly mode: string;
    readonly rounds: number;
    readonly roundSeconds: number;
    readonly warmupSeconds: number;
    readonly connections: number;
    readonly seedRecords: number;
    readonly pinned: boolean;
    readonly machine: Machine;
    readonly tookSeconds: number;
  };
  readonly memory: ScenarioResult;
  /** The app on SQLite beside the app on the memory store; undefined with --no-sqlite. */
  readonly sqlite?: SqliteResult | undefined;
  /** Undefined when no MONGODB_URI was given, or the MongoDB part failed before it ended. */
  readonly mongodb: ScenarioResult | undefined;
  /** Why the MongoDB part is missing or incomplete. */
  readonly mongodbNote: string | undefined;
  readonly sweeps: { readonly memory: Sweep; readonly mongodb: Sweep | undefined };
  readonly soak: SoakResult;
}

/** A target of issue 6 and whether this run met it. */
export interface TargetCheck {
  readonly name: string;
  readonly measured: string;
  readonly met: boolean | undefined;
}

/** `contender`'s req/s (the app's by default) over the baseline's, for one operation; undefined where either is missing. */
export function ratio(comparison: Comparison | undefined, op: Operation, baseline: string, contender = 'app'): number | undefined {
  const app = comparison?.[op]?.[contender];
  const base = comparison?.[op]?.[baseline];
  return app === undefined || base === undefined ? undefined : app.reqPerSec / base.reqPerSec;
}

export function checkTargets(results: Results): TargetCheck[] {
  const memory = results.memory.comparison;
  const appRuns = Object.values(memory).flatMap((byServer) => (byServer.app === undefined ? [] : [byServer.app]));
  // The target is the find run's and the soak's: the create runs keep every record they make
  // in the memory store, so their peak measures the data set, and is shown beside it.
  const findRss = memory.find?.app?.peakRssMb ?? 0;
  const soakRss = results.soak.sample.peakRssMb ?? 0;
  const peakRss = Math.max(...appRuns.map((s) => s.peakRssMb ?? 0));
  const allRuns = [results.memory, results.sqlite, results.mongodb].flatMap((scenario) =>
    Object.values(scenario?.comparison ?? {}).flatMap((byServer): Summary[] => Object.values(byServer)),
  );
  const failures = allRuns.reduce((sum, s) => sum + s.non2xx + s.errors, 0);
  const silent = allRuns.flatMap((s) => s.rounds).filter((sample) => sample.requests === 0).length;
  const findP99 = memory.find?.app?.p99Ms;
  const growth = results.soak.rssGrowthMb;
  return [
    atLeast('memory: find >= 0.8 of (b) bare Express + Map', ratio(memory, 'find', 'b'), 0.8),
    atLeast('memory: find >= 0.4 of (a) bare node:http', ratio(memory, 'find', 'a'), 0.4),
    atLeast('memory: create >= 0.75 of (b) bare Express POST', ratio(memory, 'create', 'b'), 0.75),
    {
      name: 'memory: find p99 < 5 ms at the bench connections',
      measured: findP99 === undefined ? 'n/a' : `${findP99.toFixed(2)} ms`,
      met: findP99 === undefined ? undefined : findP99 < 5,
    },
    {
      name: 'memory: app RSS < 150 MB (find and soak)',
      measured: `find ${findRss.toFixed(0)} MB, soak ${soakRss.toFixed(0)} MB (any operation: ${peakRss.toFixed(0)} MB)`,
      met: Math.max(findRss, soakRss) < 150,
    },
    {
      name: 'soak: RSS flat (last 10 s less first 10 s < 10 MB)',
      measured: growth === undefined ? 'n/a' : `${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB`,
      met: growth === undefined ? undefined : growth < 10,
    },
    {
      name: 'soak: zero non-2xx and zero errors',
      measured: `${results.soak.sample.non2xx} non-2xx, ${results.soak.sample.errors} errors of ${results.soak.sample.requests}`,
      met: results.soak.sample.non2xx + results.soak.sample.errors === 0,
    },
    {
      name: 'every measured request answered 2xx (no 404s, no 409s), every run got answers',
      measured: `${failures} failed, ${silent} run(s) with no answer`,
      met: failures === 0 && silent === 0,
    },
    atLeast('mongodb: find >= 0.85 of (c) bare Express + driver', ratio(results.mongodb?.comparison, 'find', 'c'), 0.85),
    ...sqliteTargets(results.sqlite),
  ];
}

/** SQLite against the memory store in the same run, and reads while writes go on. */
function sqliteTargets(sqlite: SqliteResult | undefined): TargetCheck[] {
  const during = sqlite?.findsDuringCreates.normal.find.p99Ms;
  return [
    atLeast('sqlite: find >= 0.85 of the memory store\'s', ratio(sqlite?.comparison, 'find', 'memory'), 0.85),
    atLeast('sqlite: list of 100 >= 0.8 of the memory store\'s', ratio(sqlite?.comparison, 'list', 'memory'), 0.8),
    {
      name: 'sqlite: find p99 < 5 ms while creates run (2000 finds/s beside 1000 creates/s)',
      measured: during === undefined ? 'not run' : `${during.toFixed(2)} ms`,
      met: during === undefined ? undefined : during < 5,
    },
  ];
}

function atLeast(name: string, value: number | undefined, goal: number): TargetCheck {
  return { name, measured: value === undefined ? 'not run' : value.toFixed(2), met: value === undefined ? undefined : value >= goal };
}
