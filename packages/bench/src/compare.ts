import { emptySample, runLoad, type Sample } from './load.js';
import { type ServerProcess } from './processes.js';
import { median } from './stats.js';
import {
  createRequests,
  deleteRequests,
  findRequests,
  listRequests,
  updateRequests,
  type Operation,
} from './workloads.js';

/** One server in a comparison, with the operations it answers and the ids it holds. */
export interface Contender {
  /** `app`, `sqlite`, `a`, `d` or `e`: the key the report uses. */
  readonly key: string;
  readonly server: ServerProcess;
  readonly operations: readonly Operation[];
  /** Ids that exist, for find, update and list. */
  readonly ids: readonly string[];
}

export interface Plan {
  readonly rounds: number;
  readonly roundSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  readonly headers: Record<string, string>;
}

/** The rounds of one operation on one contender, and their medians. */
export interface Summary {
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly peakRssMb: number | undefined;
  readonly non2xx: number;
  readonly errors: number;
  readonly generatorCpuPct: number;
  /** The server's CPU time per answered request, in µs: the median of the rounds'. */
  readonly cpuUsPerRequest: number | undefined;
  readonly rounds: readonly Sample[];
}

/** Operation -> contender key -> summary. */
export type Comparison = Partial<Record<Operation, Record<string, Summary>>>;

// Create and delete run as a pair, so each delete takes an id the create just made and the
// data set is the same size again after every round.
const GROUPS: readonly (readonly Operation[])[] = [['find'], ['update'], ['list'], ['create', 'delete']];

/**
 * Measures every operation on every contender: per operation a warm-up of each, then
 * `rounds` rounds that take the contenders in turn, each round starting one further along
 * (A B C, B C A, C A B), so drift in the machine falls on all of them alike and no server
 * always follows the same one (whatever one server leaves behind, such as the generator's
 * garbage after the fastest, falls on each of the others in turn).
 */
export async function compare(contenders: readonly Contender[], plan: Plan, label: string): Promise<Comparison> {
  const comparison: Comparison = {};
  for (const group of GROUPS) {
    const taking = contenders.filter((contender) => group.every((op) => contender.operations.includes(op)));
    if (plan.warmupSeconds > 0) {
      for (const contender of taking) await runGroup(contender, group, plan, plan.warmupSeconds);
    }
    const samples = new Map<string, Map<Operation, Sample[]>>();
    for (let round = 1; round <= plan.rounds; round += 1) {
      for (const contender of turnOrder(taking, round)) {
        const { results, leftover } = await runGroup(contender, group, plan, plan.roundSeconds);
        for (const [op, sample] of results) {
          const byOp = samples.get(contender.key) ?? new Map<Operation, Sample[]>();
          byOp.set(op, [...(byOp.get(op) ?? []), sample]);
          samples.set(contender.key, byOp);
          console.log(`${label} ${op} ${contender.key} round ${round}/${plan.rounds}: ${describe(sample)}`);
        }
        // A delete slower than its create stops at the time limit; the records it left stay.
        if (leftover > 0) console.log(`${label} ${contender.key}: ${leftover} created records left undeleted`);
      }
    }
    for (const [key, byOp] of samples) {
      for (const [op, rounds] of byOp) {
        comparison[op] = { ...comparison[op], [key]: summarize(rounds) };
      }
    }
  }
  return comparison;
}

/** The contenders in the order round `round` (from 1) takes them: each round starts one further along. */
export function turnOrder<T>(contenders: readonly T[], round: number): T[] {
  const start = (round - 1) % Math.max(contenders.length, 1);
  return [...contenders.slice(start), ...contenders.slice(0, start)];
}

async function runGroup(
  contender: Contender,
  group: readonly Operation[],
  plan: Plan,
  seconds: number,
): Promise<{ results: [Operation, Sample][]; leftover: number }> {
  const created: string[] = [];
  const results: [Operation, Sample][] = [];
  for (const op of group) {
    const base = { server: contender.server, connections: plan.connections, headers: plan.headers };
    const sample =
      op !== 'delete'
        ? await runLoad({ ...base, requests: requestsOf(op, contender.ids, created), seconds })
        : created.length === 0
          ? emptySample(contender.server) // the create made nothing: the report counts a run with no answer
          : await runLoad({ ...base, requests: deleteRequests(created), amount: created.length, maxSeconds: seconds });
    results.push([op, sample]);
  }
  return { results, leftover: created.length };
}

function requestsOf(op: Exclude<Operation, 'delete'>, ids: readonly string[], created: string[]) {
  switch (op) {
    case 'find':
      return findRequests(ids);
    case 'update':
      return updateRequests(ids);
    case 'list':
      return listRequests(0, 100);
    case 'create':
      return createRequests(created);
  }
}

/** Creates `count` records and returns their ids; fails unless every create answered 201. */
export async function seed(server: ServerProcess, count: number, plan: Pick<Plan, 'connections' | 'headers'>): Promise<string[]> {
  const created: string[] = [];
  const sample = await runLoad({
    server,
    connections: plan.connections,
    headers: plan.headers,
    requests: createRequests(created),
    amount: count,
  });
  if (sample.non2xx > 0 || sample.errors > 0 || created.length !== count) {
    throw new Error(`seeding ${server.name}: ${created.length} of ${count} created, ${sample.non2xx} non-2xx, ${sample.errors} errors`);
  }
  return created;
}

/** The server's CPU time per answered request in µs; undefined where its CPU could not be read. */
export function cpuUsPerRequest(sample: Sample): number | undefined {
  return sample.serverCpuMs === undefined || sample.requests === 0 ? undefined : (sample.serverCpuMs * 1000) / sample.requests;
}

export function summarize(rounds: readonly Sample[]): Summary {
  const rss = rounds.map((s) => s.peakRssMb).filter((mb) => mb !== undefined);
  const cpu = rounds.map(cpuUsPerRequest).filter((us) => us !== undefined);
  return {
    reqPerSec: median(rounds.map((s) => s.reqPerSec)),
    p50Ms: median(rounds.map((s) => s.p50Ms)),
    p99Ms: median(rounds.map((s) => s.p99Ms)),
    peakRssMb: rss.length === 0 ? undefined : Math.max(...rss),
    non2xx: rounds.reduce((sum, s) => sum + s.non2xx, 0),
    errors: rounds.reduce((sum, s) => sum + s.errors, 0),
    generatorCpuPct: Math.max(...rounds.map((s) => s.generatorCpuPct)),
    cpuUsPerRequest: cpu.length === 0 ? undefined : median(cpu),
    rounds,
  };
}

export function describe(sample: Sample): string {
  const rss = sample.peakRssMb === undefined ? '' : `, rss ${sample.peakRssMb.toFixed(0)} MB`;
  const cpu = cpuUsPerRequest(sample);
  const server = cpu === undefined ? '' : `, server ${cpu.toFixed(0)} µs cpu a request`;
  const bad = sample.non2xx + sample.errors > 0 ? `, ${sample.non2xx} non-2xx, ${sample.errors} errors` : '';
  return (
    `${Math.round(sample.reqPerSec)} req/s, p50 ${ms(sample.p50Ms)}, p99 ${ms(sample.p99Ms)}` +
    `${rss}${server}, generator ${sample.generatorCpuPct.toFixed(0)}% cpu${bad}`
  );
}

/** Milliseconds to two places, or n/a when nothing answered. */
export function ms(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)} ms` : 'n/a';
}
