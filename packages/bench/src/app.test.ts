import { describe, expect, it } from 'vitest';
import { buildNameOf, QUIET, servesMetrics, startApp } from './app.js';

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
  it('runs with them, and is named by them', async () => {
    const app = await startApp({ storage: 'memory', settings: QUIET }, false);
    try {
      expect(app.name).toBe('app (memory, LOG_LEVEL=warn, METRICS=off)');
      expect(await servesMetrics(app)).toBe(false);
    } finally {
      await app.stop();
    }
  });
});
