import { type ScaleResult } from './at-scale.js';
import { type ChangesResult } from './change-feed.js';
import { type Comparison } from './compare.js';
import { type FollowersResult } from './followers.js';
import { type HistoryResult } from './history.js';
import { type Machine } from './machine.js';
import { type ThroughputResult } from './scenarios.js';
import { type SoakResult } from './soak.js';
import { type Target } from './targets.js';
import { type WebhooksResult } from './webhooks.js';
import { type Operation } from './workloads.js';

/** Everything one run found; written as results.json, and results.md is made from it. */
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
  /** The app on memory and on SQLite, the peers and bare node:http in the same rounds, and SQLite's finds beside creates. */
  readonly throughput: ThroughputResult;
  readonly soak: SoakResult;
  /** Finding records at scale on SQLite (issue 28); undefined when BENCH_SCALE_RECORDS is 0. */
  readonly scale?: ScaleResult | undefined;
  /** How fast the changes feed reads and wakes on SQLite (issue 29). */
  readonly changes: ChangesResult;
  /** How fast webhooks deliver on SQLite, and what a receiver that hangs does to the API (issue 30). */
  readonly webhooks: WebhooksResult;
  /** What followers held open cost a write on SQLite, and what each costs in memory (issue 50). */
  readonly followers: FollowersResult;
  /** Many clients walking one long history on SQLite, and /health/live beside them (issue 50). */
  readonly history: HistoryResult;
  /** Every target, computed from the figures above by `checkTargets`. */
  readonly targets: readonly Target[];
}

/** What a run measured, before the targets are computed from it. */
export type Measured = Omit<Results, 'targets'>;

/** `contender`'s req/s over the baseline's, for one operation; undefined where either is missing. */
export function ratio(comparison: Comparison | undefined, op: Operation, baseline: string, contender: string): number | undefined {
  const top = comparison?.[op]?.[contender];
  const bottom = comparison?.[op]?.[baseline];
  return top === undefined || bottom === undefined ? undefined : top.reqPerSec / bottom.reqPerSec;
}
