import { randomBytes } from 'node:crypto';
// The subpath, not the package: a constant should not load the whole service.
import { NODE_FLAGS } from '@workplan/app/node-flags';
import { APP_MAIN, startServer, type ServerProcess } from './processes.js';

/** The key the bench runs the app with; the baselines ignore it but get the same header. */
export const BENCH_KEY = `bench-${randomBytes(12).toString('hex')}`;

// Settings the bench leaves at their defaults, whatever the calling shell has set, so the
// app runs in its default production configuration (logs and metrics as shipped), unless
// the spec's `settings` say otherwise.
const LEFT_AT_DEFAULT = [
  'API_KEYS_FILE', 'LIST_MAX_LIMIT', 'LOG_LEVEL', 'METRICS', 'RATE_LIMIT_PER_MINUTE', 'MONGODB_URI', 'MONGODB_TIMEOUT_MS', 'STORAGE',
  'SQLITE_PATH', 'SQLITE_SYNCHRONOUS', 'SQLITE_BUSY_TIMEOUT_MS', 'WEBHOOKS_FILE',
];

export interface AppSpec {
  readonly storage: 'memory' | 'sqlite' | 'mongodb';
  readonly mongodbUri?: string;
  /** The SQLite file and its synchronous mode, for `storage: 'sqlite'`. */
  readonly sqlite?: { readonly path: string; readonly synchronous: 'normal' | 'full' };
  readonly nodeFlags?: readonly string[];
  /** Another Node binary than the bench's own, and its version for the name. */
  readonly node?: { readonly path: string; readonly version: string };
  /** The webhook subscriptions file (WEBHOOKS_FILE); unset, no webhooks. */
  readonly webhooksFile?: string;
  /** Another build of the app (its `main.js`), such as one from before a change, named `before`. */
  readonly script?: string | undefined;
  /** Settings the app starts with beyond the bench's own, such as `QUIET`'s; named by them. */
  readonly settings?: Readonly<Record<string, string>>;
}

/** An operator's settings that turn off the request log and the metrics: what observing each request costs. */
export const QUIET: Readonly<Record<string, string>> = { LOG_LEVEL: 'warn', METRICS: 'off' };

/** Settings as an operator writes them: `LOG_LEVEL=warn, METRICS=off`. */
export const settingsText = (settings: Readonly<Record<string, string>>): string =>
  Object.entries(settings)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ');

/**
 * Starts `packages/app/dist/main.js` in production and waits for /health/ready. The memory
 * store is refused in production, so it runs without NODE_ENV, which changes nothing on
 * the request path (logs are JSON lines either way, stdout being a pipe).
 */
export async function startApp(spec: AppSpec, pinned: boolean): Promise<ServerProcess> {
  const mode = spec.sqlite === undefined ? '' : `, synchronous ${spec.sqlite.synchronous}`;
  const runtime = spec.node === undefined ? '' : `, Node ${spec.node.version}`;
  const build = spec.script === undefined ? '' : ', before';
  const settings = spec.settings === undefined ? '' : `, ${settingsText(spec.settings)}`;
  return startServer(
    {
      name: `app (${spec.storage}${mode}${runtime}${build}${settings})`,
      node: spec.node?.path,
      script: spec.script ?? APP_MAIN,
      env: appEnvironment(spec),
      ready: { path: '/health/ready' },
      // As `pnpm start` and the Dockerfile run it.
      nodeFlags: [...NODE_FLAGS, ...(spec.nodeFlags ?? [])],
    },
    pinned,
  );
}

/** The environment the app starts with: the calling shell's, but the settings left at their defaults, then the spec's. */
export function appEnvironment(spec: AppSpec): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of LEFT_AT_DEFAULT) env[name] = undefined;
  Object.assign(env, { NODE_ENV: spec.storage === 'memory' ? undefined : 'production', API_KEYS: BENCH_KEY, STORAGE: spec.storage });
  if (spec.mongodbUri !== undefined) env.MONGODB_URI = spec.mongodbUri;
  if (spec.sqlite !== undefined) Object.assign(env, { SQLITE_PATH: spec.sqlite.path, SQLITE_SYNCHRONOUS: spec.sqlite.synchronous });
  if (spec.webhooksFile !== undefined) env.WEBHOOKS_FILE = spec.webhooksFile;
  return Object.assign(env, spec.settings);
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

/** The connection string with its database part set to `name`; keeps hosts and options. */
export function withDatabase(uri: string, name: string): string {
  const [base = '', query] = uri.split('?', 2);
  const hostsEnd = base.indexOf('/', base.indexOf('://') + 3);
  const hosts = hostsEnd < 0 ? base : base.slice(0, hostsEnd);
  return `${hosts}/${name}${query === undefined ? '' : `?${query}`}`;
}

/**
 * A build's name for the results: the folder `scripts/bench-before.sh` made it in
 * (`app-at-COMMIT`), or else the script's file name; never a path of the machine it ran on.
 */
export function buildNameOf(script: string): string {
  const parts = script.split(/[\\/]/u);
  return parts.find((part) => part.startsWith('app-at-')) ?? parts.at(-1) ?? script;
}
