import { afterEach, describe, expect, it, vi } from 'vitest';
import { appEnvironment, buildNameOf, QUIET, servesMetrics, startApp } from './app.js';

describe('the name of the build the app is compared with', () => {
  it('is the folder scripts/bench-before.sh built it in, without the path before it', () => {
    expect(buildNameOf('/home/someone/.cache/workplan/app-at-15cc3c20ff78/packages/app/dist/main.js')).toBe('app-at-15cc3c20ff78');
    expect(buildNameOf('C:\\cache\\workplan\\app-at-abc123\\packages\\app\\dist\\main.js')).toBe('app-at-abc123');
  });

  it('is the file name for a build made elsewhere', () => {
    expect(buildNameOf('/opt/builds/old/main.js')).toBe('main.js');
  });
});

describe('an app started with settings of its own', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('gets them over the defaults the bench keeps, whatever the shell set', () => {
    vi.stubEnv('LOG_LEVEL', 'debug');
    vi.stubEnv('METRICS', 'on');
    expect(appEnvironment({ storage: 'memory', settings: QUIET })).toMatchObject({ LOG_LEVEL: 'warn', METRICS: 'off', STORAGE: 'memory' });
    const shipped = appEnvironment({ storage: 'memory' });
    expect([shipped.LOG_LEVEL, shipped.METRICS]).toEqual([undefined, undefined]);
  });

  it('runs with them, and is named by them', { timeout: 30_000 }, async () => {
    const app = await startApp({ storage: 'memory', settings: QUIET }, false);
    try {
      expect(app.name).toBe('app (memory, LOG_LEVEL=warn, METRICS=off)');
      expect(await servesMetrics(app)).toBe(false);
    } finally {
      await app.stop();
    }
  });
});
