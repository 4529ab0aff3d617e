import { utimes, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runApp, type AppProcess } from '@workplan/testing';
import { afterEach, describe, expect, it } from 'vitest';

// `pnpm dev` is `node scripts/dev.mjs`: run here the same way, from a folder of its own
// holding a `.env`, with nothing else in its environment but PATH.
const devScript = fileURLToPath(new URL('../../../scripts/dev.mjs', import.meta.url));
// A file the running app has loaded; touching it is what a rebuild by `tsc --watch` does.
const builtFile = fileURLToPath(new URL('../dist/config.js', import.meta.url));
const key = 'dev-loop-key-0123456789';

let dev: AppProcess | undefined;

afterEach(async () => {
  if (dev?.child.exitCode === null) await dev.stop();
});

describe('pnpm dev', { timeout: 60_000 }, () => {
  it('serves with the settings of .env, restarts the app when a built file changes, and stops whole on Ctrl-C', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'workplan-dev-'));
    await writeFile(join(folder, '.env'), `PORT=0\nSTORAGE=memory\nAPI_KEYS=${key}\nLOG_LEVEL=silent\n`);
    dev = runApp(devScript, {}, { cwd: folder });

    const first = await dev.listening();
    const answer = await fetch(`${first}/api/v1/scales`, { headers: { KEY: key } });
    expect(answer.status).toBe(200);

    const now = new Date();
    await utimes(builtFile, now, now);
    await dev.printed(/Restarting/u);
    const restarted = [...dev.output().matchAll(/listening on (http:\/\/\S+)/gu)];
    for (let waited = 0; restarted.length < 2 && waited < 100; waited += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      restarted.splice(0, restarted.length, ...dev.output().matchAll(/listening on (http:\/\/\S+)/gu));
    }
    const second = restarted[1]?.[1] ?? expect.unreachable(`no second start:\n${dev.output()}`);
    expect((await fetch(`${second}/api/v1/scales`, { headers: { KEY: key } })).status).toBe(200);

    dev.child.kill('SIGINT');
    const [code] = await dev.exited;
    expect(code).toBe(0);
    await expect(fetch(`${second}/health/live`)).rejects.toThrow();
    expect(dev.output()).toMatch(/Watching for file changes/u);
  });
});
