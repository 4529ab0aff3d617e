import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What `--profile` loads the app with: finds by id, the same page of 100 or of 1000 records, creates, or updates. */
export const PROFILED_OPERATIONS = ['find', 'list100', 'list1000', 'create', 'update'] as const;
export type ProfiledOperation = (typeof PROFILED_OPERATIONS)[number];

/** How one bench run goes, from its flags and `BENCH_*` variables, read once at start. */
export interface BenchOptions {
  /** `followers`: only the followers phase (issue 50), at a full run's size, its targets printed and nothing written. */
  readonly mode: 'full' | 'quick' | 'profile' | 'followers';
  readonly rounds: number;
  readonly roundSeconds: number;
  readonly warmupSeconds: number;
  readonly soakSeconds: number;
  /** Requests a second during the soak. */
  readonly soakRate: number;
  readonly connections: number;
  /** Records in the store before find, update and list run. */
  readonly seedRecords: number;
  /** Records per resource in the finding-records scenario (searches, sorts, cursors at scale); 0: skipped. */
  readonly scaleRecords: number;
  readonly outDir: string;
  /** Pin the servers to core 0 and the load generator to core 1 with `taskset`. */
  readonly pin: boolean;
  /** What `--profile` loads the app with. */
  readonly profiled: ProfiledOperation;
  /** The store the app runs on under `--profile`. */
  readonly profiledStorage: 'memory' | 'sqlite';
}

type Env = Readonly<Record<string, string | undefined>>;

export const USAGE = `usage: pnpm bench [--quick | --profile | --followers] [--out DIR] [--no-pin]
  --quick       1 round of 2 s, soak 5 s, smaller phases: checks the harness, measures nothing
  --followers   only the followers phase (2,000 event streams and 2,000 long polls on SQLite), its targets printed, nothing written
  --profile     CPU profile of the app under load (BENCH_PROFILE: find, list100, list1000, create, update); prints the top functions
  --out DIR     where results go (full run: docs/benchmarks; otherwise a temp dir)
  --no-pin      do not pin processes to cores with taskset
env: BENCH_ROUNDS, BENCH_ROUND_SECONDS, BENCH_WARMUP_SECONDS, BENCH_SOAK_SECONDS,
     BENCH_SOAK_RATE, BENCH_CONNECTIONS, BENCH_SEED_RECORDS,
     BENCH_SCALE_RECORDS (records per resource where searches, sorts and cursors are measured; 0 skips them),
     BENCH_PROFILE (find, list100, list1000, create, update: the load --profile runs),
     BENCH_PROFILE_STORAGE (memory or sqlite: the store the app runs on under --profile)`;

/** Parses argv and the environment; throws an Error with the usage text on a bad flag. */
export function parseOptions(argv: readonly string[], env: Env): BenchOptions {
  const flags = new Set(argv.filter((arg) => arg.startsWith('--')));
  const outIndex = argv.indexOf('--out');
  const outArg = outIndex >= 0 ? argv[outIndex + 1] : undefined;
  const known = ['--quick', '--profile', '--followers', '--out', '--no-pin', '--help'];
  const unknown = [...flags].filter((flag) => !known.includes(flag));
  if (flags.has('--help') || unknown.length > 0 || (outIndex >= 0 && outArg === undefined)) {
    throw new Error(unknown.length > 0 ? `unknown flag ${unknown.join(', ')}\n${USAGE}` : USAGE);
  }
  const quick = flags.has('--quick');
  const mode = flags.has('--profile') ? 'profile' : flags.has('--followers') ? 'followers' : quick ? 'quick' : 'full';
  const defaultOut = mode === 'full' ? fileURLToPath(new URL('../../../docs/benchmarks', import.meta.url)) : join(tmpdir(), `workplan-bench-${mode}-${Date.now()}`);
  return {
    mode,
    rounds: whole(env, 'BENCH_ROUNDS', quick ? 1 : 3, 1),
    roundSeconds: whole(env, 'BENCH_ROUND_SECONDS', quick ? 2 : 10, 1),
    warmupSeconds: whole(env, 'BENCH_WARMUP_SECONDS', quick ? 1 : 3, 0),
    soakSeconds: whole(env, 'BENCH_SOAK_SECONDS', quick ? 5 : 60, 1),
    soakRate: whole(env, 'BENCH_SOAK_RATE', 1000, 10),
    connections: whole(env, 'BENCH_CONNECTIONS', 50, 1),
    seedRecords: whole(env, 'BENCH_SEED_RECORDS', 1000, 100),
    scaleRecords: whole(env, 'BENCH_SCALE_RECORDS', quick ? 10_000 : 100_000, 0),
    outDir: outArg ?? defaultOut,
    pin: !flags.has('--no-pin'),
    profiled: profiled(env.BENCH_PROFILE),
    profiledStorage: profiledStorage(env.BENCH_PROFILE_STORAGE),
  };
}

function whole(env: Env, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/u.test(raw) || Number(raw) < min) throw new Error(`${name} must be a whole number >= ${min}, not "${raw}"`);
  return Number(raw);
}

function profiled(raw: string | undefined): ProfiledOperation {
  const value = raw?.trim() || 'find';
  const known = PROFILED_OPERATIONS.find((operation) => operation === value);
  if (known === undefined) throw new Error(`BENCH_PROFILE must be one of ${PROFILED_OPERATIONS.join(', ')}, not "${value}"`);
  return known;
}

function profiledStorage(raw: string | undefined): 'memory' | 'sqlite' {
  const value = raw?.trim() || 'memory';
  if (value !== 'memory' && value !== 'sqlite') throw new Error(`BENCH_PROFILE_STORAGE must be memory or sqlite, not "${value}"`);
  return value;
}
