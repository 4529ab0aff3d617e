import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand, send, type AppProcess } from '@workplan/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { descendantsOf, survivorsOf } from './testing/process-tree.js';

// `pnpm start` as a person or a process manager runs it, stopped the two ways they stop it.
const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
const key = 'start-script-key-0123456789';

let started: { pnpm: AppProcess; tree: number[] } | undefined;

afterEach(async () => {
  // A test that failed midway leaves no server behind: only processes this test started.
  const pids = started === undefined ? [] : [started.pnpm.child.pid ?? 0, ...started.tree];
  for (const pid of await survivorsOf(pids, 0)) process.kill(pid, 'SIGKILL');
  started = undefined;
});

/** `pnpm start` in a scratch folder's database, serving; with the processes it started. */
async function startWithPnpm(options: { detached?: boolean } = {}) {
  const env = {
    HOME: process.env.HOME ?? '',
    PORT: '0',
    HOST: '127.0.0.1',
    API_KEYS: key,
    SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'workplan-start-')), 'workplan.db'),
    // No prestart build: the test run has built already, and building again would rewrite
    // the console other test files are serving.
    npm_config_enable_pre_post_scripts: 'false',
  };
  const pnpm = runCommand('pnpm', ['start'], env, { cwd: repositoryRoot, ...options });
  const url = await pnpm.listening();
  expect((await send(url, { path: '/api/v1/scales', headers: { key } })).status).toBe(200);
  started = { pnpm, tree: descendantsOf(pnpm.child.pid ?? 0) };
  return { pnpm, url, tree: started.tree };
}

describe('pnpm start', { timeout: 60_000 }, () => {
  it('stops whole on SIGTERM to the pnpm process: the app closes, nothing serves, no process of it is left', async () => {
    const { pnpm, url, tree } = await startWithPnpm();
    expect(tree.length).toBeGreaterThan(0);
    pnpm.child.kill('SIGTERM');
    await pnpm.exited;
    expect(await survivorsOf(tree, 15_000)).toEqual([]);
    expect(pnpm.output()).toMatch(/SIGTERM: closing/u);
    await expect(fetch(`${url}/health/live`)).rejects.toThrow();
  });

  it('stops whole on Ctrl-C, which signals every process of the terminal\'s group at once, and closes once', async () => {
    const { pnpm, url, tree } = await startWithPnpm({ detached: true });
    process.kill(-(pnpm.child.pid ?? 0), 'SIGINT');
    const [code] = await pnpm.exited;
    expect(await survivorsOf(tree, 15_000)).toEqual([]);
    expect(code).toBe(0);
    expect(pnpm.output().match(/SIGINT: closing/gu)).toHaveLength(1);
    await expect(fetch(`${url}/health/live`)).rejects.toThrow();
  });
});
