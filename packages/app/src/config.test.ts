import { fingerprintOf } from '@workplan/adapter-express';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.js';

describe('parseConfig', () => {
  it('fills the documented defaults from an empty environment', () => {
    expect(parseConfig({})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      production: false,
      apiKeys: [],
      apiKeysFile: undefined,
      storage: 'sqlite',
      sqlitePath: 'data/workplan.db',
      sqliteSynchronous: 'normal',
      sqliteBusyTimeoutMs: 2000,
      mongodbUri: undefined,
      mongodbTimeoutMs: 2000,
      mongodbWriteLeaseMs: 5000,
      warnings: [],
      listMaxLimit: 1000,
      logLevel: 'info',
      metrics: true,
      rateLimitPerMinute: undefined,
      trustProxy: undefined,
      corsOrigins: [],
      requestTimeoutMs: 10_000,
      shutdownTimeoutMs: 10_000,
      changesRetentionDays: undefined,
      webhooksFile: undefined,
      webhooksLeaseMs: 30_000,
      followerBounds: { perKey: 100, total: 2000 },
    });
  });

  it('reads every setting', () => {
    const config = parseConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      NODE_ENV: 'production',
      API_KEYS: ' first-key-0123456789 ,, second-key-0123456789 role=read name=Folha',
      API_KEYS_FILE: '/run/secrets/keys',
      STORAGE: 'mongodb',
      MONGODB_URI: 'mongodb://db:27017/workplan',
      LIST_MAX_LIMIT: '250',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      production: true,
      apiKeys: [
        { key: 'first-key-0123456789', name: fingerprintOf('first-key-0123456789'), role: 'write', place: 'API_KEYS entry 1' },
        { key: 'second-key-0123456789', name: 'Folha', role: 'read', place: 'API_KEYS entry 3' },
      ],
      apiKeysFile: '/run/secrets/keys',
      storage: 'mongodb',
      listMaxLimit: 250,
    });
  });

  it('names every bad setting at once, one sentence each', () => {
    const parse = () =>
      parseConfig({ PORT: '70000', STORAGE: 'redis', LIST_MAX_LIMIT: '0', API_KEYS: 'short' });
    expect(parse).toThrow(ConfigError);
    try {
      parse();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'PORT must be a whole number from 0 to 65535, not "70000"',
        'API_KEYS entry 1: the key is shorter than 16 characters',
        'STORAGE must be one of sqlite, memory, mongodb, not "redis"',
        'LIST_MAX_LIMIT must be a whole number from 1 to 100000, not "0"',
      ]);
    }
  });

  it('refuses a key longer than the key check compares', () => {
    expect(() => parseConfig({ API_KEYS: `ok-key-0123456789,${'k'.repeat(257)}` })).toThrow(
      'API_KEYS entry 2: the key is longer than 256 bytes',
    );
  });

  it('refuses a bad entry of API_KEYS in one line naming its place among the commas, never the key', () => {
    const key = 'secret-key-0123456789';
    const refused = () => parseConfig({ API_KEYS: `first-key-0123456789 name=Folha,,${key} role=admin` });
    expect(refused).toThrow(new ConfigError(['API_KEYS entry 3: role must be read or write']));
  });

  it('refuses one name on two keys of API_KEYS', () => {
    expect(() => parseConfig({ API_KEYS: 'first-key-0123456789 name=Folha, second-key-0123456789 name=Folha role=read' })).toThrow(
      new ConfigError(['API_KEYS entry 2: the name "Folha" is already used by API_KEYS entry 1 (names compare regardless of case): each key needs a name of its own']),
    );
  });

  it.each([',', ' , ,', '   '])('refuses API_KEYS=%j, set but naming no key, rather than make a key for the run', (value) => {
    expect(() => parseConfig({ API_KEYS: value })).toThrow(
      new ConfigError(['API_KEYS is set but names no key: give keys separated by commas, or leave it unset']),
    );
  });

  it('takes an empty API_KEYS as unset', () => {
    expect(parseConfig({ API_KEYS: '' }).apiKeys).toEqual([]);
  });

  it('warns of a MONGODB_URI that STORAGE does not use', () => {
    expect(parseConfig({ MONGODB_URI: 'mongodb://db/' }).warnings).toEqual([
      'MONGODB_URI is set but STORAGE is not mongodb: it is ignored',
    ]);
  });

  it('hostile 7: warns that MongoDB calls end with the request when MONGODB_TIMEOUT_MS is the longer', () => {
    const env = { STORAGE: 'mongodb', MONGODB_URI: 'mongodb://db/', MONGODB_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '4000' };
    expect(parseConfig(env).warnings).toEqual([
      'MONGODB_TIMEOUT_MS is longer than REQUEST_TIMEOUT_MS: MongoDB calls end at 4000 ms, with the request',
    ]);
    expect(parseConfig({ ...env, MONGODB_TIMEOUT_MS: '4000' }).warnings).toEqual([]);
  });

  it('derives the MongoDB write lease from a call\'s time limit (twice it, plus 1 s), takes a longer one, and refuses a shorter one', () => {
    const mongo = { STORAGE: 'mongodb', MONGODB_URI: 'mongodb://db/' };
    expect(parseConfig(mongo).mongodbWriteLeaseMs).toBe(5000);
    expect(parseConfig({ ...mongo, MONGODB_TIMEOUT_MS: '500' }).mongodbWriteLeaseMs).toBe(2000);
    // A call ends with its request when the request's limit is the shorter.
    expect(parseConfig({ ...mongo, MONGODB_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '4000' }).mongodbWriteLeaseMs).toBe(9000);
    expect(parseConfig({ ...mongo, MONGODB_WRITE_LEASE_MS: ' 30000 ' })).toMatchObject({ mongodbWriteLeaseMs: 30_000, warnings: [] });
    for (const bad of ['4999', '600001', '5s', '-1']) {
      expect(() => parseConfig({ ...mongo, MONGODB_WRITE_LEASE_MS: bad })).toThrow(
        new ConfigError([`MONGODB_WRITE_LEASE_MS must be a whole number from 5000 (twice a MongoDB call's 2000 ms, plus 1000) to 600000, not "${bad}"`]),
      );
    }
    expect(parseConfig({ MONGODB_WRITE_LEASE_MS: '9000' }).warnings).toEqual(['MONGODB_WRITE_LEASE_MS is set but STORAGE is not mongodb: it is ignored']);
  });

  it('reads the production settings', () => {
    const config = parseConfig({
      LOG_LEVEL: 'warn',
      METRICS: 'off',
      RATE_LIMIT_PER_MINUTE: '600',
      TRUST_PROXY: '1',
      CORS_ORIGINS: 'https://app.example.com, http://localhost:5173',
      REQUEST_TIMEOUT_MS: '2500',
      SHUTDOWN_TIMEOUT_MS: '30000',
    });
    expect(config).toMatchObject({
      logLevel: 'warn',
      metrics: false,
      rateLimitPerMinute: 600,
      trustProxy: 1,
      corsOrigins: ['https://app.example.com', 'http://localhost:5173'],
      requestTimeoutMs: 2500,
      shutdownTimeoutMs: 30_000,
    });
  });

  it('refuses bad production settings, one sentence each', () => {
    expect(() => parseConfig({ LOG_LEVEL: 'loud' })).toThrow('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "loud"');
    expect(() => parseConfig({ CORS_ORIGINS: 'https://app.example.com/path' })).toThrow('not an origin');
    expect(() => parseConfig({ RATE_LIMIT_PER_MINUTE: '0' })).toThrow('RATE_LIMIT_PER_MINUTE must be a whole number');
    expect(() => parseConfig({ SHUTDOWN_TIMEOUT_MS: '10s' })).toThrow('SHUTDOWN_TIMEOUT_MS must be a whole number from 0 to 600000, not "10s"');
  });

  it('bounds the followers of the changes by FOLLOWERS_PER_KEY and FOLLOWERS_MAX: 100 and 2000 unless set, refused in one sentence when bad', () => {
    expect(parseConfig({}).followerBounds).toEqual({ perKey: 100, total: 2000 });
    expect(parseConfig({ FOLLOWERS_PER_KEY: '3', FOLLOWERS_MAX: ' 10 ' }).followerBounds).toEqual({ perKey: 3, total: 10 });
    for (const bad of ['0', '-1', '1.5', 'many', '1000001']) {
      expect(() => parseConfig({ FOLLOWERS_PER_KEY: bad })).toThrow(`FOLLOWERS_PER_KEY must be a whole number from 1 to 1000000, not "${bad}"`);
      expect(() => parseConfig({ FOLLOWERS_MAX: bad })).toThrow(`FOLLOWERS_MAX must be a whole number from 1 to 1000000, not "${bad}"`);
    }
    // A key's bound over the total bounds nothing more than the total does: said, not refused.
    expect(parseConfig({ FOLLOWERS_PER_KEY: '50', FOLLOWERS_MAX: '20' }).warnings).toEqual([
      'FOLLOWERS_PER_KEY is more than FOLLOWERS_MAX: a key holds at most FOLLOWERS_MAX (20) followers',
    ]);
  });

  it('reads CHANGES_RETENTION_DAYS as whole days, and refuses anything else in one sentence', () => {
    expect(parseConfig({ CHANGES_RETENTION_DAYS: ' 30 ' }).changesRetentionDays).toBe(30);
    expect(parseConfig({ CHANGES_RETENTION_DAYS: '' }).changesRetentionDays).toBeUndefined();
    for (const bad of ['0', '-1', '1.5', '30d', '36501']) {
      expect(() => parseConfig({ CHANGES_RETENTION_DAYS: bad })).toThrow(`CHANGES_RETENTION_DAYS must be a whole number from 1 to 36500, not "${bad}"`);
    }
  });

  it('reads WEBHOOKS_LEASE_SECONDS as whole seconds from 3 to 3600, and refuses anything else in one sentence', () => {
    const file = { WEBHOOKS_FILE: 'webhooks.json' };
    expect(parseConfig({ ...file, WEBHOOKS_LEASE_SECONDS: ' 5 ' })).toMatchObject({ webhooksLeaseMs: 5000, warnings: [] });
    expect(parseConfig({ ...file, WEBHOOKS_LEASE_SECONDS: '3600' }).webhooksLeaseMs).toBe(3_600_000);
    expect(parseConfig({ ...file, WEBHOOKS_LEASE_SECONDS: '' }).webhooksLeaseMs).toBe(30_000);
    for (const bad of ['0', '2', '-5', '4.5', '30s', '3601', 'trinta']) {
      expect(() => parseConfig({ ...file, WEBHOOKS_LEASE_SECONDS: bad })).toThrow(
        new ConfigError([`WEBHOOKS_LEASE_SECONDS must be a whole number from 3 to 3600, not "${bad}"`]),
      );
    }
  });

  it('warns of a WEBHOOKS_LEASE_SECONDS with no WEBHOOKS_FILE to lease', () => {
    expect(parseConfig({ WEBHOOKS_LEASE_SECONDS: '5' }).warnings).toEqual(['WEBHOOKS_LEASE_SECONDS is set but WEBHOOKS_FILE is not: it is ignored']);
  });

  it('asks for MONGODB_URI when STORAGE is mongodb', () => {
    expect(() => parseConfig({ STORAGE: 'mongodb' })).toThrow('MONGODB_URI must be set when STORAGE is mongodb');
  });

  it('reads the SQLite file as given and its synchronous mode', () => {
    expect(parseConfig({ SQLITE_PATH: 'var/records.db', SQLITE_SYNCHRONOUS: 'full' })).toMatchObject({
      storage: 'sqlite',
      sqlitePath: 'var/records.db',
      sqliteSynchronous: 'full',
    });
    expect(() => parseConfig({ SQLITE_SYNCHRONOUS: 'off' })).toThrow('SQLITE_SYNCHRONOUS must be one of normal, full, not "off"');
  });

  it('refuses SQLITE_PATH=:memory:, which SQLite would take for a database that ends with the process', () => {
    expect(() => parseConfig({ SQLITE_PATH: ':memory:' })).toThrow('SQLITE_PATH=:memory: keeps nothing once the process ends: name a file');
    expect(parseConfig({ STORAGE: 'memory', SQLITE_PATH: ':memory:' }).storage).toBe('memory');
  });

  it('warns that the memory store forgets, and refuses it in production', () => {
    expect(parseConfig({ STORAGE: 'memory', SQLITE_PATH: 'x.db' }).warnings).toEqual([
      'STORAGE=memory: records are kept in this process only and are lost when it ends',
      'SQLITE_PATH is set but STORAGE is not sqlite: it is ignored',
    ]);
    expect(() => parseConfig({ STORAGE: 'memory', NODE_ENV: 'production', API_KEYS: 'a-key-0123456789abc' })).toThrow(
      'STORAGE=memory loses every record when the process ends: it is refused when NODE_ENV=production',
    );
  });
});
