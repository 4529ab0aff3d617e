import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { FAULT_REPORT_INTERVAL_MS } from '@workplan/adapter-sqlite';
import { runApp, send, type AppProcess, type HttpAnswer } from '@workplan/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { inCi, mountSmallFileSystem, warnUntested } from './testing/small-file-system.js';

// Issue 27's faults of the SQLite file met while serving: a lock held by another process
// at SIGTERM, a full disk, the file deleted. The built app (`pnpm test` builds first) as a
// process of its own, since each fault lives in the file system or the process's lifetime.

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const key = 'serving-faults-key-0123456789';
const json = { 'content-type': 'application/json', key };

const running: AppProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop()));
});

function run(cwd: string, env: Record<string, string> = {}): AppProcess {
  const app = runApp(main, { PORT: '0', HOST: '127.0.0.1', API_KEYS: key, LOG_LEVEL: 'warn', ...env }, { cwd });
  running.push(app);
  return app;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A create's answer, or `reset` when the connection ended without one. */
function create(url: string, value: string): Promise<HttpAnswer | 'reset'> {
  return send(url, { method: 'POST', path: '/api/v1/scale', headers: json, body: JSON.stringify({ value }) }).catch(() => 'reset' as const);
}

/** The contract's answer for a storage that cannot serve: 503, `Retry-After`, the envelope with the operation's message, and a detail true of every cause (a full disk is no time-out). */
function expectUnavailable(answer: HttpAnswer | 'reset', message = 'Não foi possível criar a escala de trabalho.'): void {
  expect(answer).not.toBe('reset');
  if (answer === 'reset') return;
  expect(answer.status).toBe(503);
  expect(answer.headers['retry-after']).toBe('2');
  expect(answer.json).toMatchObject({ success: false, message, error: { code: 'STORAGE_UNAVAILABLE', detail: 'O armazenamento está indisponível no momento; tente novamente.' } });
}

/** The service's own log lines at warn and above in `output` (request lines left out). */
function faultLines(output: string): { level: number; msg: string }[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{') && !line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((line) => line.level >= 40);
}

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'workplan-serving-faults-'));
}

describe('the app on SQLite, when the file fails while it serves', () => {
  it(
    'SQLite fault 1: SIGTERM while another process holds the write lock exits within SHUTDOWN_TIMEOUT_MS, answering 503 to every write not begun, none of them stored',
    async () => {
      const cwd = scratch();
      const shutdownMs = 3000;
      // A busy timeout far past the shutdown's: the writes would wait it out one after another.
      const app = run(cwd, { SHUTDOWN_TIMEOUT_MS: String(shutdownMs), SQLITE_BUSY_TIMEOUT_MS: '20000' });
      const url = await app.listening();
      const holder = new DatabaseSync(join(cwd, 'data', 'workplan.db'));
      holder.exec('BEGIN IMMEDIATE');
      try {
        const answers = Array.from({ length: 50 }, (_, n) => create(url, `held ${String(n)}`));
        await sleep(500);
        app.child.kill('SIGTERM');
        // Within SHUTDOWN_TIMEOUT_MS by the app's own clock, not a time measured here: every
        // write is answered 503 (a drain cut short at the timeout would reset connections, and
        // say so in the log), and the app exits 0.
        const answered = await Promise.all(answers);
        // The lock comes free as soon as the clients have their answers, while the app may
        // still run: a write it answered 503 but kept would commit now.
        holder.exec('ROLLBACK');
        const [code] = await app.exited;
        expect(code).toBe(0);
        // Its log read to the end: its last lines may come after the exit.
        const { stdout } = app.child;
        if (!stdout.readableEnded) await once(stdout, 'end');
        expect(app.output()).not.toMatch(/cut short/u);
        for (const answer of answered) expectUnavailable(answer);
        expect(holder.prepare('SELECT count(*) AS n FROM work_schedules').get()).toEqual({ n: 0 });
      } finally {
        if (holder.isTransaction) holder.exec('ROLLBACK');
        holder.close();
      }
    },
    30_000,
  );

  // Tried as the tests are collected, and unmounted at once: whether it can be had decides whether the test is skipped.
  const noSmallFileSystem = ((probe) => {
    if (typeof probe === 'string') return probe;
    probe.release();
    return undefined;
  })(mountSmallFileSystem('2m'));
  if (noSmallFileSystem !== undefined) warnUntested('SQLite fault 2 (a full disk)', noSmallFileSystem);

  it.skipIf(noSmallFileSystem !== undefined && !inCi)(
    'SQLite fault 2: a full disk is 503 STORAGE_UNAVAILABLE with Retry-After and not ready, told in a warning every few seconds at most, and serves again once there is room',
    async () => {
      const small = mountSmallFileSystem('2m');
      if (typeof small === 'string') throw new Error(`SQLite fault 2 cannot be tested here: ${small}`);
      try {
        const path = join(small.folder, 'workplan.db');
        const app = run(scratch(), { SQLITE_PATH: path });
        const url = await app.listening();
        const stored = new Set<string>();
        const acknowledge = (answer: HttpAnswer | 'reset'): void => {
          if (answer !== 'reset' && answer.status === 201) stored.add((answer.json as { data: { id: string } }).data.id);
        };
        for (let n = 0; n < 5; n += 1) acknowledge(await create(url, `before ${String(n)}`));
        expect(stored.size).toBe(5);

        const logBefore = app.output().length;
        small.fill('filler');
        const started = Date.now();
        const refused: HttpAnswer[] = [];
        // A count of requests, not a time: a busy machine sends as many, only more slowly.
        for (let round = 0; round < 10; round += 1) {
          const answers = await Promise.all(Array.from({ length: 8 }, (_, n) => create(url, `${'x'.repeat(150)} ${String(round)}-${String(n)}`)));
          for (const answer of answers) {
            acknowledge(answer);
            if (answer === 'reset' || answer.status !== 201) refused.push(answer as HttpAnswer);
          }
        }
        expect(refused.length).toBeGreaterThan(50);
        for (const answer of refused) expectUnavailable(answer);
        expect((await send(url, { path: '/health/ready' })).status).toBe(503);
        // Told at once, then at most once more for each FAULT_REPORT_INTERVAL_MS that has passed,
        // whatever the count of requests: a bound on the lines for the time the machine took,
        // not on the time (the interval's arithmetic: adapter-sqlite's file-faults.test.ts).
        // The log is written asynchronously: read once the first line is there.
        await app.printed(/cannot serve \(database or disk is full\)/u);
        const lines = faultLines(app.output().slice(logBefore));
        expect(lines.length).toBeGreaterThanOrEqual(1);
        expect(lines.length).toBeLessThanOrEqual(1 + Math.floor((Date.now() - started) / FAULT_REPORT_INTERVAL_MS));
        expect(lines[0]).toMatchObject({ level: 40, msg: expect.stringContaining(`${path} cannot serve (database or disk is full)`) as unknown });

        rmSync(join(small.folder, 'filler'));
        const after = await create(url, 'after the disk was freed');
        expect(after === 'reset' ? after : after.status).toBe(201);
        acknowledge(after);
        expect((await send(url, { path: '/health/ready' })).status).toBe(200);
        // No write answered 201 was lost to the full disk.
        const listed = await send(url, { path: '/api/v1/scales', headers: { key } });
        const ids = new Set((listed.json as { data: { id: string }[] }).data.map((record) => record.id));
        for (const id of stored) expect(ids).toContain(id);
        expect(await app.stop()).toBe(0);
      } finally {
        small.release();
      }
    },
    30_000,
  );

  it.skipIf(noSmallFileSystem !== undefined && !inCi)(
    'SQLite fault 2b: a disk the file filled itself is not ready while writes fail, though a small write of its own may still find room',
    async () => {
      const small = mountSmallFileSystem('2m');
      if (typeof small === 'string') throw new Error(`SQLite fault 2b cannot be tested here: ${small}`);
      try {
        const app = run(scratch(), { SQLITE_PATH: join(small.folder, 'workplan.db') });
        const url = await app.listening();
        let failed: HttpAnswer | 'reset' | undefined;
        for (let n = 0; n < 2000 && failed === undefined; n += 1) {
          const answer = await create(url, `${'x'.repeat(150)} ${String(n)}`);
          if (answer === 'reset' || answer.status !== 201) failed = answer;
        }
        expect(failed).toBeDefined();
        for (let n = 0; n < 5; n += 1) {
          expect((await send(url, { path: '/health/ready' })).status).toBe(503);
          expectUnavailable(await create(url, `${'y'.repeat(150)} ${String(n)}`));
        }
        expect(await app.stop()).toBe(0);
      } finally {
        small.release();
      }
    },
    60_000,
  );

  it(
    'SQLite fault 4: a file deleted while serving is 503 and not ready at once, told in an error naming the path, and the new file a restart makes is told at start',
    async () => {
      const cwd = scratch();
      const path = join(cwd, 'data', 'workplan.db');
      const app = run(cwd);
      const url = await app.listening();
      const made = await create(url, 'before the file was deleted');
      expect(made === 'reset' ? made : made.status).toBe(201);
      const id = made === 'reset' ? '' : (made.json as { data: { id: string } }).data.id;

      for (const name of readdirSync(join(cwd, 'data'))) rmSync(join(cwd, 'data', name));
      // A write checks the file before it is answered.
      expectUnavailable(await create(url, 'after the file was deleted'));
      expect((await send(url, { path: '/health/ready' })).status).toBe(503);
      // Reads learn of it at the check's next turn (every second; its timing is the storage's
      // own tests'): once one is refused, both are.
      while ((await send(url, { path: '/api/v1/scales', headers: { key } })).status !== 503) await sleep(100);
      expectUnavailable(await send(url, { path: `/api/v1/scale/${id}`, headers: { key } }), 'Não foi possível retornar a escala de trabalho.');
      expectUnavailable(await send(url, { path: '/api/v1/scales', headers: { key } }), 'Não foi possível retornar as escalas de trabalho.');
      expect(existsSync(path)).toBe(false);
      // The log is written asynchronously: read once the error is there.
      await app.printed(new RegExp(`"level":50,.*${path.replaceAll(/[.*+?^${}()|[\]\\]/gu, '\\$&')}`, 'u'));
      const errors = faultLines(app.output()).filter((line) => line.level >= 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.msg).toContain(path);
      expect(await app.stop()).toBe(0);

      const restarted = run(cwd);
      await restarted.listening();
      expect(restarted.output()).toContain(`${path} did not exist: a new, empty database was made there`);
    },
    30_000,
  );
});
