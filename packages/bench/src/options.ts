import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What `--profile` loads the app with: finds by id, the same page of 100 or of 1000 records, creates, or updates. */
export const PROFILED_OPERATIONS = ['find', 'list100', 'list1000', 'create', 'update'] as const;
export type ProfiledOperation = (typeof PROFILED_OPERATIONS)[number];

/** How one bench run goes, from its flags and `BENCH_*` variables, read once at start. */
export interface BenchOptions {
  readonly mode: 'full' | 'quick' | 'profile' | 'changes';
  readonly rounds: number;
  readonly roundSeconds: number;
  readonly warmupSeconds: number;
  readonly soakSeconds: number;
  /** Requests a second during the soak. */
  readonly soakRate: number;
  readonly connections: number;
  /** Records in the store before find, update and list run. */
  readonly seedRecords: number;
  readonly pageSizes: readonly number[];
  readonly collectionSizes: readonly number[];
  /** Records per resource in the finding-records scenario (searches, sorts, cursors at scale); 0: skipped. */
  readonly scaleRecords: number;
  /** Unset: the MongoDB part is skipped. */
  readonly mongodbUri: string | undefined;
  /** Measure the app on SQLite (both synchronous modes) beside the memory store. */
  readonly sqlite: boolean;
  readonly outDir: string;
  /** Pin the servers to core 0 and the load generator to core 1 with `taskset`. */
  readonly pin: boolean;
  /** What `--profile` loads the app with. */
  readonly profiled: ProfiledOperation;
  /** The store the app runs on under `--profile`. */
  readonly profiledStorage: 'memory' | 'sqlite';
  /** The Node major the app also runs on, beside the bench's own, in the memory scenario; undefined: not. */
  readonly otherNode: string | undefined;
  /** The app built before writes were kept as changes (its main.js), for what recording costs; undefined: not measured. */
  readonly beforeApp: string | undefined;
  /** The app built before records could be searched and sorted (its main.js), for the plain list's cost; undefined: not measured. */
  readonly beforeFindingApp: string | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

export const USAGE = `usage: pnpm bench [--quick | --profile | --changes] [--out DIR] [--no-mongodb] [--no-sqlite] [--no-pin]
  --quick       1 round of 2 s, soak 5 s, smaller sweeps: checks the harness, measures nothing
  --profile     CPU profile of the app under load (BENCH_PROFILE: find, list100, list1000, create, update); prints the top functions
  --changes     the changes phase alone, full size (what keeping changes costs, the feed's reads and wake-ups): changes.json and changes.md
  --out DIR     where results go (full run: docs/benchmarks; --changes: docs/benchmarks/changes; otherwise a temp dir)
  --no-mongodb  skip MongoDB even when MONGODB_URI is set
  --no-sqlite   skip the SQLite rows (both synchronous modes, beside the memory store)
  --no-pin      do not pin processes to cores with taskset
env: BENCH_ROUNDS, BENCH_ROUND_SECONDS, BENCH_WARMUP_SECONDS, BENCH_SOAK_SECONDS,
     BENCH_SOAK_RATE, BENCH_CONNECTIONS, BENCH_SEED_RECORDS, BENCH_COLLECTION_SIZES (1000,10000,100000),
     BENCH_SCALE_RECORDS (records per resource where searches, sorts and cursors are measured; 0 skips them),
     BENCH_PROFILE (find, list100, list1000, create, update: the load --profile runs),
     BENCH_PROFILE_STORAGE (memory or sqlite: the store the app runs on under --profile),
     BENCH_OTHER_NODE (24: the Node major the app also runs on, beside the bench's own; none to skip),
     BENCH_BEFORE_APP (the main.js of the app built before writes were kept as changes: $(bash scripts/bench-before.sh)),
     BENCH_BEFORE_FINDING_APP (the main.js of the app built before search and sort: $(bash scripts/bench-before.sh 30c5742)),
     MONGODB_URI (a MongoDB to bench against; the bench uses a database of its own and drops it)`;

/** Parses argv and the environment; throws an Error with the usage text on a bad flag. */
export function parseOptions(argv: readonly string[], env: Env): BenchOptions {
  const flags = new Set(argv.filter((arg) => arg.startsWith('--')));
  const outIndex = argv.indexOf('--out');
  const outArg = outIndex >= 0 ? argv[outIndex + 1] : undefined;
  const known = ['--quick', '--profile', '--changes', '--out', '--no-mongodb', '--no-sqlite', '--no-pin', '--help'];
  const unknown = [...flags].filter((flag) => !known.includes(flag));
  if (flags.has('--help') || unknown.length > 0 || (outIndex >= 0 && outArg === undefined)) {
    throw new Error(unknown.length > 0 ? `unknown flag ${unknown.join(', ')}\n${USAGE}` : USAGE);
  }
  const quick = flags.has('--quick');
  const mode = flags.has('--profile') ? 'profile' : flags.has('--changes') ? 'changes' : quick ? 'quick' : 'full';
  const repoDocs = fileURLToPath(new URL('../../../docs/benchmarks', import.meta.url));
  const defaultOut = mode === 'full' ? repoDocs : mode === 'changes' ? join(repoDocs, 'changes') : join(tmpdir(), `workplan-bench-${mode}-${Date.now()}`);
  return {
    mode,
    rounds: whole(env, 'BENCH_ROUNDS', quick ? 1 : 3, 1),
    roundSeconds: whole(env, 'BENCH_ROUND_SECONDS', quick ? 2 : 10, 1),
    warmupSeconds: whole(env, 'BENCH_WARMUP_SECONDS', quick ? 1 : 3, 0),
    soakSeconds: whole(env, 'BENCH_SOAK_SECONDS', quick ? 5 : 60, 1),
    soakRate: whole(env, 'BENCH_SOAK_RATE', 1000, 10),
    connections: whole(env, 'BENCH_CONNECTIONS', 50, 1),
    seedRecords: whole(env, 'BENCH_SEED_RECORDS', 1000, 100),
    pageSizes: [10, 100, 1000],
    scaleRecords: whole(env, 'BENCH_SCALE_RECORDS', quick ? 10_000 : 100_000, 0),
    collectionSizes: sizes(env, 'BENCH_COLLECTION_SIZES', quick ? [1000, 10_000] : [1000, 10_000, 100_000]),
    mongodbUri: flags.has('--no-mongodb') ? undefined : blankToUndefined(env.MONGODB_URI),
    sqlite: !flags.has('--no-sqlite'),
    outDir: outArg ?? defaultOut,
    pin: !flags.has('--no-pin'),
    otherNode: major(env, 'BENCH_OTHER_NODE', '24'),
    beforeApp: blankToUndefined(env.BENCH_BEFORE_APP),
    beforeFindingApp: blankToUndefined(env.BENCH_BEFORE_FINDING_APP),
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

function major(env: Env, name: string, fallback: string): string | undefined {
  const raw = env[name]?.trim() || fallback;
  if (raw === 'none') return undefined;
  if (!/^[1-9][0-9]*$/u.test(raw)) throw new Error(`${name} must be a Node major version such as 26, or none, not "${raw}"`);
  return raw;
}

function sizes(env: Env, name: string, fallback: number[]): number[] {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const list = raw.split(',').map((part) => part.trim());
  if (list.some((part) => !/^[0-9]+$/u.test(part) || Number(part) < 100)) {
    throw new Error(`${name} must be a comma-separated list of whole numbers >= 100, not "${raw}"`);
  }
  return list.map(Number).sort((a, b) => a - b);
}

function blankToUndefined(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
