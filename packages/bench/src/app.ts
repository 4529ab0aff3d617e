import { randomBytes } from 'node:crypto';
// The subpath, not the package: a constant should not load the whole service.
import { NODE_FLAGS } from '@workplan/app/node-flags';
import { APP_MAIN, startServer, type ServerProcess } from './processes.js';

/** The key the bench runs the app with; the baselines ignore it but get the same header. */
export const BENCH_KEY = `bench-${randomBytes(12).toString('hex')}`;

// Settings the bench leaves at their defaults, whatever the calling shell has set, so the
// app runs in its default production configuration (logs and metrics as shipped).
const LEFT_AT_DEFAULT = [
  'API_KEYS_FILE', 'LIST_MAX_LIMIT', 'LOG_LEVEL', 'METRICS', 'RATE_LIMIT_PER_MINUTE', 'MONGODB_URI', 'MONGODB_TIMEOUT_MS', 'STORAGE',
  'SQLITE_PATH', 'SQLITE_SYNCHRONOUS', 'SQLITE_BUSY_TIMEOUT_MS', 'WEBHOOKS_FILE', 'FOLLOWERS_PER_KEY', 'FOLLOWERS_MAX',
];

export interface AppSpec {
  readonly storage: 'memory' | 'sqlite';
  /** The SQLite file, for `storage: 'sqlite'`, with synchronous `normal` as shipped. */
  readonly sqlitePath?: string;
  readonly nodeFlags?: readonly string[];
  /** The webhook subscriptions file (WEBHOOKS_FILE); unset, no webhooks. */
  readonly webhooksFile?: string;
  /** Settings besides the defaults (the followers phase's bounds). */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Starts `packages/app/dist/main.js` in production and waits for /health/ready. The memory
 * store is refused in production, so it runs without NODE_ENV, which changes nothing on
 * the request path (logs are JSON lines either way, stdout being a pipe).
 */
export async function startApp(spec: AppSpec, pinned: boolean): Promise<ServerProcess> {
  return startServer(
    {
      name: `app (${spec.storage})`,
      script: APP_MAIN,
      env: appEnvironment(spec),
      ready: { path: '/health/ready' },
      // As `pnpm start` and the Dockerfile run it.
      nodeFlags: [...NODE_FLAGS, ...(spec.nodeFlags ?? [])],
    },
    pinned,
  );
}

/** Runs `use` on a fresh app, and stops the app after. */
export async function withApp<T>(spec: AppSpec, pinned: boolean, use: (app: ServerProcess) => Promise<T>): Promise<T> {
  const app = await startApp(spec, pinned);
  try {
    return await use(app);
  } finally {
    await app.stop();
  }
}

/** The environment the app starts with: the calling shell's, but the settings left at their defaults, then the spec's. */
export function appEnvironment(spec: AppSpec): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of LEFT_AT_DEFAULT) env[name] = undefined;
  Object.assign(env, { NODE_ENV: spec.storage === 'memory' ? undefined : 'production', API_KEYS: BENCH_KEY, STORAGE: spec.storage });
  if (spec.sqlitePath !== undefined) env.SQLITE_PATH = spec.sqlitePath;
  if (spec.webhooksFile !== undefined) env.WEBHOOKS_FILE = spec.webhooksFile;
  Object.assign(env, spec.env);
  return env;
}

/** Whether the app serves /metrics (metrics on), so the report says what configuration ran. */
export async function servesMetrics(app: ServerProcess): Promise<boolean> {
  try {
    const response = await fetch(`${app.url}/metrics`, { headers: { key: BENCH_KEY } });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
