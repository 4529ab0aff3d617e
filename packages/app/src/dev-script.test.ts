import { utimes, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runApp, runCommand, type AppProcess } from '@workplan/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { descendantsOf, survivorsOf } from './testing/process-tree.js';

// `pnpm dev` runs `scripts/dev.mjs`: run here by node, from a folder of its own holding a
// `.env`, with nothing else in its environment but PATH; and by pnpm itself, to be stopped.
const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
const devScript = join(repositoryRoot, 'scripts/dev.mjs');
// A file the running app has loaded; touching it is what a rebuild by `tsc --watch` does.
const builtFile = fileURLToPath(new URL('../dist/config.js', import.meta.url));
const key = 'dev-loop-key-0123456789';

let dev: AppProcess | undefined;
let tree: number[] = [];

afterEach(async () => {
  if (dev?.child.exitCode === null) await dev.stop();
  // A test that failed midway leaves no server behind: only processes this test started.
  for (const pid of await survivorsOf(tree, 0)) process.kill(pid, 'SIGKILL');
  tree = [];
});

describe('pnpm dev', { timeout: 60_000 }, () => {
  // On the default storage, SQLite in the folder's data/, whose threads run under node --watch too.
  it('serves with the settings of .env, restarts the app when a built file changes, and stops whole on Ctrl-C', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'workplan-dev-'));
    await writeFile(join(folder, '.env'), `PORT=0\nAPI_KEYS=${key}\nLOG_LEVEL=silent\n`);
    dev = runApp(devScript, {}, { cwd: folder });

    const first = await dev.listening();
    const headers = { KEY: key, 'Content-Type': 'application/json' };
    const created = await fetch(`${first}/api/v1/scale`, { method: 'POST', headers, body: JSON.stringify({ value: 'Noturno 12x36' }) });
    expect(created.status).toBe(201);
    const found = await fetch(`${first}/api/v1/scales?q=noturno`, { headers: { KEY: key } });
    expect(((await found.json()) as { data: { value: string }[] }).data.map((record) => record.value)).toEqual(['Noturno 12x36']);

    const now = new Date();
    await utimes(builtFile, now, now);
    await dev.printed(/Restarting/u);
    const restarted = [...dev.output().matchAll(/listening on (http:\/\/\S+)/gu)];
    for (let waited = 0; restarted.length < 2 && waited < 100; waited += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      restarted.splice(0, restarted.length, ...dev.output().matchAll(/listening on (http:\/\/\S+)/gu));
    }
    const second = restarted[1]?.[1] ?? expect.unreachable(`no second start:\n${dev.output()}`);
    const kept = await fetch(`${second}/api/v1/scales`, { headers: { KEY: key } });
    expect(((await kept.json()) as { data: { value: string }[] }).data.map((record) => record.value)).toEqual(['Noturno 12x36']);

    dev.child.kill('SIGINT');
    const [code] = await dev.exited;
    expect(code).toBe(0);
    await expect(fetch(`${second}/health/live`)).rejects.toThrow();
    expect(dev.output()).toMatch(/Watching for file changes/u);
    expect(dev.output()).not.toMatch(/Failed running/u);
  });

  // Run where pnpm runs it, the repository, whose `.env` (if a developer has one) the environment overrides.
  it.each([
    ['SIGTERM to the pnpm process', (pnpm: number) => process.kill(pnpm, 'SIGTERM')],
    ["Ctrl-C, which signals every process of the terminal's group", (pnpm: number) => process.kill(-pnpm, 'SIGINT')],
  ])('run by pnpm, stops whole on %s: nothing serves, no process of it is left', async (_name, signal) => {
    const env = { HOME: process.env.HOME ?? '', PORT: '0', HOST: '127.0.0.1', STORAGE: 'memory', API_KEYS: key };
    dev = runCommand('pnpm', ['dev'], env, { cwd: repositoryRoot, detached: true });
    const url = await dev.listening();
    expect((await fetch(`${url}/api/v1/scales`, { headers: { KEY: key } })).status).toBe(200);
    const pnpm = dev.child.pid ?? 0;
    tree = descendantsOf(pnpm);
    expect(tree.length).toBeGreaterThanOrEqual(4); // the dev script, tsc, node --watch and the app

    signal(pnpm);
    await dev.exited;
    expect(await survivorsOf(tree, 15_000)).toEqual([]);
    await expect(fetch(`${url}/health/live`)).rejects.toThrow();
  });
});
