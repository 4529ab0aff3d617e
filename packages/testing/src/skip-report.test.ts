import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const vitest = fileURLToPath(new URL('../../../node_modules/vitest/vitest.mjs', import.meta.url));

/**
 * Runs `files` in a Vitest of its own as `pnpm test` does, with no MONGODB_URI, a Docker
 * socket that does not exist (so no MongoDB server is found) and CHROMIUM_PATH naming no file;
 * CI=false, since under CI=true a missing server or browser is a failure, not a skip.
 */
async function runWithout(files: readonly string[]): Promise<{ lines: string[]; skipped: number }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CI: 'false',
    DOCKER_HOST: 'unix:///nonexistent/docker.sock',
    CHROMIUM_PATH: '/nonexistent/chromium',
    PROMTOOL_PATH: '/nonexistent/promtool',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  };
  delete env.MONGODB_URI;
  const { stdout } = await promisify(execFile)(process.execPath, [vitest, 'run', '--config', 'vitest.workspace.ts', ...files], { cwd: root, env });
  return { lines: stdout.trim().split('\n'), skipped: Number(/Tests\s+.*?(\d+) skipped/u.exec(stdout)?.[1] ?? 0) };
}

/** The closing banner: the lines between the last two rules of `!`. */
function bannerOf(lines: readonly string[]): string[] {
  const rules = lines.flatMap((line, index) => (/^!{20,}$/u.test(line) ? [index] : []));
  return lines.slice((rules.at(-2) ?? 0) + 1, rules.at(-1));
}

describe('the end of a test run without a MongoDB server, a Chromium or a promtool', () => {
  it('names each group of tests that did not run, how many, and what brings it', { timeout: 180_000 }, async () => {
    const mongo = 'packages/adapter-mongodb/src/mongo-repository.int.test.ts';
    const browser = 'packages/app/src/docs-page.test.ts';
    const rules = 'packages/deployment/src/prometheus-rules.test.ts';
    const { lines, skipped } = await runWithout([mongo, browser, rules]);
    const banner = bannerOf(lines);
    const count = (pattern: RegExp) => Number(banner.map((line) => pattern.exec(line)?.[1]).find((found) => found !== undefined) ?? 0);
    const mongoTests = count(/^(\d+) MongoDB integration tests in 1 file did NOT run/u);
    const browserTests = count(/^(\d+) browser tests in 1 file did NOT run/u);
    const rulesTests = count(/^(\d+) alerting rules tests in 1 file did NOT run/u);
    // The file holds the whole repository contract suite: far more than one placeholder.
    expect(mongoTests).toBeGreaterThan(10);
    expect(browserTests).toBeGreaterThan(0);
    expect(rulesTests).toBeGreaterThan(0);
    expect(mongoTests + browserTests + rulesTests).toBe(skipped);
    expect(banner.join('\n')).toMatch(/MONGODB_URI.*Docker.*\n.*bash scripts\/test-db\.sh pnpm test/u);
    expect(banner.join('\n')).toMatch(/\/nonexistent\/chromium.*\n.*apt-get install -y chromium.*CHROMIUM_PATH/u);
    expect(banner.join('\n')).toMatch(/\/nonexistent\/promtool.*\n.*apt-get install -y prometheus.*PROMTOOL_PATH/u);
    expect(banner.at(-1)).toBe('Under CI=true each of these is a failure.');
  });
});
