import { type FollowerBounds } from '@workplan/adapter-express';
import { leaseOf } from '@workplan/adapter-mongodb/lease';
import { DEFAULT_MAX_PAGE_SIZE } from '@workplan/core';
import { DEFAULT_TIMINGS } from '@workplan/webhooks';
import { checkedKeySet, keyEntriesOf, type ConfiguredKey } from './key-entries.js';
import { withPasswordFromFile } from './mongo-password.js';

/** Where records are kept: a SQLite file (the default), the process's memory, or MongoDB. */
export const STORAGE_KINDS = ['sqlite', 'memory', 'mongodb'] as const;
export type StorageKind = (typeof STORAGE_KINDS)[number];

/** SQLite's `synchronous` setting: `normal` survives a killed process, `full` also a power loss. */
export const SQLITE_SYNCHRONOUS_MODES = ['normal', 'full'] as const;
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS_MODES)[number];

/** The SQLite file when SQLITE_PATH is unset, under the working directory. */
export const DEFAULT_SQLITE_PATH = 'data/workplan.db';

/** Everything the service reads from its environment, parsed and checked once at start-up. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly production: boolean;
  /** Keys from `API_KEYS`, with their names and roles; the key file's are read separately, since they change on SIGHUP. */
  readonly apiKeys: readonly ConfiguredKey[];
  readonly apiKeysFile: string | undefined;
  readonly storage: StorageKind;
  /** The SQLite file as SQLITE_PATH gives it: the storage resolves it against the working directory, and refuses one written as a folder. */
  readonly sqlitePath: string;
  readonly sqliteSynchronous: SqliteSynchronous;
  /** How long a SQLite call waits for another connection's lock before giving up. */
  readonly sqliteBusyTimeoutMs: number;
  /** MONGODB_URI, with the password of MONGODB_PASSWORD_FILE in it when that is set. */
  readonly mongodbUri: string | undefined;
  /** How long a MongoDB call waits for a server before answering 503. */
  readonly mongodbTimeoutMs: number;
  /**
   * How long a MongoDB write with no answer may still land: how long the records a dead
   * writer was writing refuse writes, and the changes feed waits for its change.
   */
  readonly mongodbWriteLeaseMs: number;
  /** Settings that do nothing as given; printed at start-up. */
  readonly warnings: readonly string[];
  readonly listMaxLimit: number;
  readonly logLevel: LogLevel;
  readonly metrics: boolean;
  /** Requests a minute per key (and failed key attempts per address); unset means no limit. */
  readonly rateLimitPerMinute: number | undefined;
  /** Express's `trust proxy`, as given: `true`, a hop count, or addresses / subnets. */
  readonly trustProxy: boolean | number | string | undefined;
  readonly corsOrigins: readonly string[];
  /** A request not answered in this time is answered 503, or 408 while its body is still arriving. */
  readonly requestTimeoutMs: number;
  /** How long SIGTERM waits for requests in flight before cutting them short and exiting. */
  readonly shutdownTimeoutMs: number;
  /** How many days of changes are kept (history and feed); unset keeps every change. */
  readonly changesRetentionDays: number | undefined;
  /** The webhook subscriptions' file, read at start and on SIGHUP; unset sends no webhook. */
  readonly webhooksFile: string | undefined;
  /** How long a webhook subscription's lease lasts: how soon another instance takes over from a dead one. */
  readonly webhooksLeaseMs: number;
  /** How many followers of the changes (event streams, long polls waiting) are held open per key and in all; past one, 429 or 503. */
  readonly followerBounds: FollowerBounds;
}

/** A console per clerk and a few integrations under one key; the total well within what one process holds (docs/operations.md). */
export const DEFAULT_FOLLOWER_BOUNDS: FollowerBounds = { perKey: 100, total: 2000 };
const MAX_FOLLOWERS = 1_000_000;

/** The longest retention CHANGES_RETENTION_DAYS may name: a hundred years, which is keeping everything. */
export const MAX_RETENTION_DAYS = 36_500;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A configuration that cannot run; `problems` has one sentence per bad setting, and the message one line each. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(readonly problems: readonly string[]) {
    super(problems.map((problem) => `invalid configuration: ${problem}`).join('\n'));
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** Parses the environment into a Config, or throws a ConfigError naming every bad setting. */
export function parseConfig(env: Env): Config {
  const problems: string[] = [];
  const read = <T>(parse: () => T, fallback: T): T => {
    try {
      return parse();
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
      return fallback;
    }
  };
  const mongodbTimeoutMs = read(() => integerSetting(env, 'MONGODB_TIMEOUT_MS', 2000, 100, 60_000), 0);
  const requestTimeoutMs = read(() => integerSetting(env, 'REQUEST_TIMEOUT_MS', 10_000, 100, 600_000), 0);
  const config: Config = {
    port: read(() => integerSetting(env, 'PORT', 3000, 0, 65_535), 0),
    host: read(() => textSetting(env, 'HOST', '127.0.0.1'), ''),
    production: env.NODE_ENV === 'production',
    apiKeys: read(() => apiKeysSetting(env.API_KEYS), []),
    apiKeysFile: blankToUndefined(env.API_KEYS_FILE),
    storage: read(() => oneOf(env, 'STORAGE', STORAGE_KINDS, 'sqlite'), 'sqlite'),
    sqlitePath: textSetting(env, 'SQLITE_PATH', DEFAULT_SQLITE_PATH),
    sqliteSynchronous: read(() => oneOf(env, 'SQLITE_SYNCHRONOUS', SQLITE_SYNCHRONOUS_MODES, 'normal'), 'normal'),
    sqliteBusyTimeoutMs: read(() => integerSetting(env, 'SQLITE_BUSY_TIMEOUT_MS', 2000, 0, 60_000), 0),
    mongodbUri: read(() => mongodbUriSetting(env), undefined),
    mongodbTimeoutMs,
    mongodbWriteLeaseMs: read(() => mongodbWriteLeaseMs(env, mongodbCallMs({ mongodbTimeoutMs, requestTimeoutMs })), 0),
    warnings: [],
    listMaxLimit: read(() => integerSetting(env, 'LIST_MAX_LIMIT', DEFAULT_MAX_PAGE_SIZE, 1, 100_000), 1),
    logLevel: read(() => oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'), 'info'),
    metrics: read(() => oneOf(env, 'METRICS', ['on', 'off'], 'on'), 'on') === 'on',
    rateLimitPerMinute: read(() => optionalInteger(env, 'RATE_LIMIT_PER_MINUTE', 1, 1_000_000), undefined),
    trustProxy: trustProxySetting(env.TRUST_PROXY),
    corsOrigins: read(() => originList(env.CORS_ORIGINS ?? ''), []),
    requestTimeoutMs,
    shutdownTimeoutMs: read(() => integerSetting(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000), 0),
    changesRetentionDays: read(() => optionalInteger(env, 'CHANGES_RETENTION_DAYS', 1, MAX_RETENTION_DAYS), undefined),
    webhooksFile: blankToUndefined(env.WEBHOOKS_FILE),
    webhooksLeaseMs: read(() => webhooksLeaseSeconds(env) * 1000, DEFAULT_TIMINGS.leaseMs),
    followerBounds: {
      perKey: read(() => integerSetting(env, 'FOLLOWERS_PER_KEY', DEFAULT_FOLLOWER_BOUNDS.perKey, 1, MAX_FOLLOWERS), 1),
      total: read(() => integerSetting(env, 'FOLLOWERS_MAX', DEFAULT_FOLLOWER_BOUNDS.total, 1, MAX_FOLLOWERS), 1),
    },
  };
  if (config.storage === 'mongodb' && blankToUndefined(env.MONGODB_URI) === undefined) {
    problems.push('MONGODB_URI must be set when STORAGE is mongodb');
  }
  if (config.storage === 'sqlite' && config.sqlitePath === ':memory:') {
    problems.push('SQLITE_PATH=:memory: keeps nothing once the process ends: name a file');
  }
  if (config.storage === 'memory' && config.production) {
    problems.push('STORAGE=memory loses every record when the process ends: it is refused when NODE_ENV=production');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return { ...config, warnings: warningsOf(config, env) };
}

/** Settings that do nothing as given, and a storage that will not keep what it is given. */
function warningsOf(config: Config, env: Env): string[] {
  const warnings: string[] = [];
  if (config.storage === 'memory') {
    warnings.push('STORAGE=memory: records are kept in this process only and are lost when it ends');
  }
  if (config.storage !== 'mongodb' && config.mongodbUri !== undefined) {
    warnings.push('MONGODB_URI is set but STORAGE is not mongodb: it is ignored');
  }
  for (const name of ['MONGODB_PASSWORD_FILE', 'MONGODB_WRITE_LEASE_MS']) {
    if (config.storage !== 'mongodb' && blankToUndefined(env[name]) !== undefined) {
      warnings.push(`${name} is set but STORAGE is not mongodb: it is ignored`);
    }
  }
  if (config.storage === 'mongodb' && config.mongodbTimeoutMs > config.requestTimeoutMs) {
    warnings.push(`MONGODB_TIMEOUT_MS is longer than REQUEST_TIMEOUT_MS: MongoDB calls end at ${config.requestTimeoutMs} ms, with the request`);
  }
  for (const name of ['SQLITE_PATH', 'SQLITE_SYNCHRONOUS', 'SQLITE_BUSY_TIMEOUT_MS']) {
    if (config.storage !== 'sqlite' && blankToUndefined(env[name]) !== undefined) {
      warnings.push(`${name} is set but STORAGE is not sqlite: it is ignored`);
    }
  }
  if (config.webhooksFile === undefined && blankToUndefined(env.WEBHOOKS_LEASE_SECONDS) !== undefined) {
    warnings.push('WEBHOOKS_LEASE_SECONDS is set but WEBHOOKS_FILE is not: it is ignored');
  }
  const { perKey, total } = config.followerBounds;
  if (perKey > total) warnings.push(`FOLLOWERS_PER_KEY is more than FOLLOWERS_MAX: a key holds at most FOLLOWERS_MAX (${total}) followers`);
  return warnings;
}

/** The time limit of one MongoDB storage call: no call outlives the request that made it. */
export function mongodbCallMs(config: Pick<Config, 'mongodbTimeoutMs' | 'requestTimeoutMs'>): number {
  return Math.min(config.mongodbTimeoutMs, config.requestTimeoutMs);
}

/**
 * At least, and by default, the shortest lease safe for calls of `callMs` (twice it, plus
 * the clocks' allowance: docs/storage.md, "The lease"); longer for a network or server
 * known to hold a write longer. At most ten minutes.
 */
function mongodbWriteLeaseMs(env: Env, callMs: number): number {
  const least = leaseOf(callMs);
  const max = 600_000;
  const raw = env.MONGODB_WRITE_LEASE_MS?.trim();
  if (raw === undefined || raw === '') return least;
  const value = /^[0-9]+$/u.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= least && value <= max)) {
    throw new Error(`MONGODB_WRITE_LEASE_MS must be a whole number from ${least} (twice a MongoDB call's ${callMs} ms, plus 1000) to ${max}, not "${raw}"`);
  }
  return value;
}

/** At least 3 s: an attempt gets a third of the lease (at most 10 s), and less than a second is no attempt at all. */
function webhooksLeaseSeconds(env: Env): number {
  return integerSetting(env, 'WEBHOOKS_LEASE_SECONDS', DEFAULT_TIMINGS.leaseMs / 1000, 3, 3600);
}

/**
 * The keys of API_KEYS, each entry named by its place among the commas. Empty means unset;
 * set to nothing but commas and blanks is a slip (a variable that expanded to nothing),
 * refused rather than read as no key at all, which would have the service make a key of
 * its own for the run.
 */
function apiKeysSetting(raw: string | undefined): ConfiguredKey[] {
  if (raw === undefined || raw === '') return [];
  const keys = keyEntriesOf(raw.split(','), (index) => `API_KEYS entry ${index + 1}`);
  if (keys.length === 0) throw new Error('API_KEYS is set but names no key: give keys separated by commas, or leave it unset');
  return checkedKeySet(keys);
}

/** MONGODB_URI, and the password of MONGODB_PASSWORD_FILE put into it when that is set. */
function mongodbUriSetting(env: Env): string | undefined {
  const uri = blankToUndefined(env.MONGODB_URI);
  const passwordFile = blankToUndefined(env.MONGODB_PASSWORD_FILE);
  if (uri === undefined || passwordFile === undefined || env.STORAGE?.trim() !== 'mongodb') return uri;
  return withPasswordFromFile(uri, passwordFile);
}

function integerSetting(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = /^[0-9]+$/u.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) throw new Error(`${name} must be a whole number from ${min} to ${max}, not "${raw}"`);
  return value;
}

function optionalInteger(env: Env, name: string, min: number, max: number): number | undefined {
  return blankToUndefined(env[name]) === undefined ? undefined : integerSetting(env, name, min, min, max);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = textSetting(env, name, fallback);
  const found = allowed.find((value) => value === raw);
  if (found === undefined) throw new Error(`${name} must be one of ${allowed.join(', ')}, not "${raw}"`);
  return found;
}

/** Comma-separated origins, each a scheme, host and optional port, as browsers send them. */
function originList(text: string): string[] {
  const origins = text.split(',').map((o) => o.trim()).filter((o) => o.length > 0);
  for (const origin of origins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      throw new Error(`CORS_ORIGINS holds "${origin}", which is not an origin such as https://app.example.com`);
    }
  }
  return origins;
}

function trustProxySetting(raw: string | undefined): Config['trustProxy'] {
  const value = blankToUndefined(raw);
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  return /^[0-9]+$/u.test(value) ? Number(value) : value;
}

function textSetting(env: Env, name: string, fallback: string): string {
  return blankToUndefined(env[name]) ?? fallback;
}

function blankToUndefined(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
