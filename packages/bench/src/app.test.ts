import { afterEach, describe, expect, it, vi } from 'vitest';
import { appEnvironment, BENCH_KEY } from './app.js';

describe('the app\'s environment', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('leaves logs, metrics and the storage\'s settings at their defaults, whatever the shell set, and gives the bench\'s key', () => {
    vi.stubEnv('LOG_LEVEL', 'debug');
    vi.stubEnv('METRICS', 'off');
    vi.stubEnv('SQLITE_SYNCHRONOUS', 'full');
    const env = appEnvironment({ storage: 'sqlite', sqlitePath: 'bench.db' });
    expect([env.LOG_LEVEL, env.METRICS, env.SQLITE_SYNCHRONOUS]).toEqual([undefined, undefined, undefined]);
    expect(env).toMatchObject({ NODE_ENV: 'production', STORAGE: 'sqlite', SQLITE_PATH: 'bench.db', API_KEYS: BENCH_KEY });
  });

  it('runs the memory store outside production, which refuses it', () => {
    expect(appEnvironment({ storage: 'memory' })).toMatchObject({ NODE_ENV: undefined, STORAGE: 'memory' });
  });
});
