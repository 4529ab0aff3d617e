import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const vitest = fileURLToPath(new URL('../../../../node_modules/vitest/vitest.mjs', import.meta.url));

describe('a test run without a MongoDB server', () => {
  it('reports every test of the skipped suites, and says at the end how many did not run', { timeout: 120_000 }, async () => {
    // No MONGODB_URI and a Docker socket that does not exist: the suite finds no server.
    // CI=false, since under CI=true a missing server is a failure, not a skip.
    const env: NodeJS.ProcessEnv = { ...process.env, CI: 'false', DOCKER_HOST: 'unix:///nonexistent/docker.sock', NO_COLOR: '1', FORCE_COLOR: '0' };
    delete env.MONGODB_URI;
    const file = 'packages/adapter-mongodb/src/mongo-repository.int.test.ts';
    const { stdout } = await promisify(execFile)(process.execPath, [vitest, 'run', '--config', 'vitest.workspace.ts', '--project', 'integration', file], {
      cwd: root,
      env,
    });
    const skipped = Number(/Tests\s+.*?(\d+) skipped/u.exec(stdout)?.[1] ?? 0);
    // The file holds the whole repository contract suite: far more than one placeholder.
    expect(skipped).toBeGreaterThan(10);
    const lines = stdout.trim().split('\n');
    expect(lines.at(-3)).toBe(`${skipped} integration tests in 1 files did NOT run (no MongoDB server, or no FerretDB to stop and start).`);
    expect(lines.at(-2)).toBe('Run them with: bash scripts/test-db.sh pnpm test');
  });
});
