import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { send } from '@workplan/testing';
import { describe, expect, it } from 'vitest';
import { inCi, mountSmallFileSystem, warnUntested } from './testing/small-file-system.js';

// The log's own disk full: stdout sent to a file (`>> workplan.log`, systemd's `append:`) on
// a disk that fills. The built app as a process of its own, its stdout a file on a small tmpfs.

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const noSmallFileSystem = (() => {
  const probe = mountSmallFileSystem('1m');
  if (typeof probe === 'string') return probe;
  probe.release();
  return undefined;
})();
if (noSmallFileSystem !== undefined) warnUntested('the log on a full disk', noSmallFileSystem);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the app whose log cannot be written', () => {
  it.skipIf(noSmallFileSystem !== undefined && !inCi)(
    'goes on serving while its stdout is a file on a full disk, and stops on SIGTERM without waiting for room',
    async () => {
      const small = mountSmallFileSystem('1m');
      if (typeof small === 'string') throw new Error(`the log on a full disk cannot be tested here: ${small}`);
      const logPath = join(small.folder, 'workplan.log');
      const log = openSync(logPath, 'a');
      const child = spawn(process.execPath, [main], {
        env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', STORAGE: 'memory', API_KEYS: 'log-disk-key-0123456789' },
        stdio: ['ignore', log, log],
      });
      closeSync(log);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => { resolve(code); }));
      try {
        let url: string | undefined;
        for (let n = 0; n < 100 && url === undefined; n += 1) {
          url = /listening on (http:\S+)/u.exec(readFileSync(logPath, 'utf8'))?.[1];
          if (url === undefined) await sleep(50);
        }
        if (url === undefined) throw new Error(`the app did not start:\n${readFileSync(logPath, 'utf8')}`);
        small.fill('filler');
        // Request lines enough to need several writes of the log, each refused for want of room.
        for (let round = 0; round < 6; round += 1) {
          await Promise.race([Promise.all(Array.from({ length: 50 }, () => send(url, { path: '/health/live' }))), sleep(3000)]);
          await sleep(300);
        }
        // Held by its log, the app would answer nothing, and not exit, until there is room,
        // which comes only once the test ends: answered and exited at all, it did not wait.
        const live = await send(url, { path: '/health/live' });
        expect(live.status).toBe(200);
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
      } finally {
        child.kill('SIGKILL');
        small.release();
      }
    },
    60_000,
  );
});
