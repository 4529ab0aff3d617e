import { createHash } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { SCHEMA_VERSION } from '@workplan/adapter-sqlite';
import { runApp, send, type AppProcess, type HttpAnswer } from '@workplan/testing';
import { afterEach, describe, expect, it } from 'vitest';

// The built entry point, as `pnpm start` runs it (`pnpm test` builds first).
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const key = 'sqlite-test-key-0123456789';

/** A fresh folder as working directory, so the default `data/workplan.db` lands there. */
async function scratch(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'workplan-sqlite-app-'));
}

// Stopped after each test even when it failed midway: a process left running outlives
// the test run, and loads the machine for whatever runs next (a benchmark, say).
const running: AppProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop()));
});

function start(cwd: string, env: Record<string, string> = {}): AppProcess {
  const app = runApp(main, { PORT: '0', HOST: '127.0.0.1', API_KEYS: key, LOG_LEVEL: 'silent', ...env }, { cwd });
  running.push(app);
  return app;
}

const json = { 'content-type': 'application/json', key };

function create(url: string, path: string, body: unknown): Promise<HttpAnswer> {
  return send(url, { method: 'POST', path, headers: json, body: JSON.stringify(body) });
}

function dataOf(answer: HttpAnswer): Record<string, string> {
  return (answer.json as { data: Record<string, string> }).data;
}

async function sha256(path: string): Promise<string> {
  return createHash('sha256').update(await readFile(path)).digest('hex');
}

describe('the app on SQLite, its default storage', () => {
  it('serves from data/workplan.db and keeps every record, ids, texts and dates, across a restart', async () => {
    const cwd = await scratch();
    const first = start(cwd);
    const url = await first.listening();
    expect(first.output()).toContain(`storage: sqlite, file ${join(cwd, 'data', 'workplan.db')}`);
    const made = [
      dataOf(await create(url, '/api/v1/scale', { value: '12x36' })),
      dataOf(await create(url, '/api/v1/scale', { value: '6x1' })),
      dataOf(await create(url, '/api/v1/costCenter', { title: 'Financeiro' })),
    ];
    const renamed = dataOf(
      await send(url, { method: 'PUT', path: `/api/v1/scale/${made[1]?.id ?? ''}`, headers: json, body: '{"value":"6x1 noturno"}' }),
    );
    expect(await first.stop()).toBe(0);

    const second = start(cwd);
    const again = await second.listening();
    const scales = await send(again, { path: '/api/v1/scales', headers: { key } });
    const centers = await send(again, { path: '/api/v1/costCenters', headers: { key } });
    expect((scales.json as { data: unknown[] }).data).toEqual([made[0], renamed]);
    expect((centers.json as { data: unknown[] }).data).toEqual([made[2]]);
    expect(await second.stop()).toBe(0);
  });

  it('keeps every write that was answered 2xx, and nothing answered with an error, through kill -9', async () => {
    const cwd = await scratch();
    const app = start(cwd);
    const url = await app.listening();
    // Each worker walks its own record through create, update and delete, and tries a
    // clashing create on the way; what the storage holds must match what was answered.
    const acknowledged = new Map<string, string | null>();
    const inFlight = new Map<string, string | null>();
    const unansweredCreates = new Set<string>();
    let refusedCreates = 0;
    let stopping = false;
    const worker = async (n: number): Promise<void> => {
      for (let round = 0; !stopping; round += 1) {
        const value = `w${n}-r${round}`;
        unansweredCreates.add(value);
        const created = await create(url, '/api/v1/scale', { value }).catch(() => undefined);
        if (created?.status !== 201) return;
        unansweredCreates.delete(value);
        const id = dataOf(created).id ?? '';
        acknowledged.set(id, value);
        const clash = await create(url, '/api/v1/scale', { value: value.toUpperCase() }).catch(() => undefined);
        if (clash === undefined) return;
        expect(clash.status).toBe(409);
        refusedCreates += 1;
        inFlight.set(id, `${value} bis`);
        const updated = await send(url, { method: 'PUT', path: `/api/v1/scale/${id}`, headers: json, body: JSON.stringify({ value: `${value} bis` }) }).catch(() => undefined);
        if (updated?.status !== 200) return;
        acknowledged.set(id, `${value} bis`);
        inFlight.delete(id);
        if (round % 2 === 0) continue;
        inFlight.set(id, null);
        const deleted = await send(url, { method: 'DELETE', path: `/api/v1/scale/${id}`, headers: { key } }).catch(() => undefined);
        if (deleted?.status !== 200) return;
        acknowledged.set(id, null);
        inFlight.delete(id);
      }
    };
    const workers = Array.from({ length: 8 }, (_, n) => worker(n));
    // Killed in the middle of the work, once it has done enough to count, however slow the machine.
    await expect.poll(() => acknowledged.size > 20 && refusedCreates > 0, { timeout: 20_000, interval: 20 }).toBe(true);
    app.child.kill('SIGKILL');
    stopping = true;
    await app.exited;
    await Promise.all(workers);
    expect(acknowledged.size).toBeGreaterThan(20);
    expect(refusedCreates).toBeGreaterThan(0);

    const after = start(cwd);
    const again = await after.listening();
    const listed = await send(again, { path: '/api/v1/scales', headers: { key } });
    const stored = new Map((listed.json as { data: { id: string; value: string }[] }).data.map((r) => [r.id, r.value]));
    for (const [id, value] of acknowledged) {
      const possible = inFlight.has(id) ? [value, inFlight.get(id)] : [value];
      expect(possible, `record ${id}`).toContain(stored.get(id) ?? null);
    }
    // Nothing else is stored but a create cut off before its answer: no clashing create left a record.
    for (const [id, value] of stored) {
      if (!acknowledged.has(id)) expect(unansweredCreates, `record ${id}`).toContain(value);
    }
    expect(await after.stop()).toBe(0);
  });

  it('refuses a path that is not a database with one line and exit 1, leaving the file untouched', async () => {
    const cwd = await scratch();
    const path = join(cwd, 'notes.txt');
    await writeFile(path, 'not a database, just the notes of someone who typed the wrong path\n'.repeat(20));
    const before = await sha256(path);
    const app = start(cwd, { SQLITE_PATH: path });
    const [code] = await app.exited;
    expect(code).toBe(1);
    expect(app.output().trim().split('\n')).toHaveLength(1);
    expect(app.output()).toContain(path);
    expect(await sha256(path)).toBe(before);
  });

  it('refuses a file written by a newer schema, naming the file and both versions', async () => {
    const cwd = await scratch();
    const path = join(cwd, 'future.db');
    const future = new DatabaseSync(path);
    future.exec('PRAGMA user_version = 99');
    future.close();
    const before = await sha256(path);
    const app = start(cwd, { SQLITE_PATH: path });
    const [code] = await app.exited;
    expect(code).toBe(1);
    const lines = app.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(path);
    expect(lines[0]).toMatch(/99/u);
    expect(lines[0]).toContain(`version ${SCHEMA_VERSION}`);
    expect(await sha256(path)).toBe(before);
  });

  it('refuses a folder it cannot make with one line and exit 1', async () => {
    const cwd = await scratch();
    await writeFile(join(cwd, 'plain-file'), '');
    const path = join(cwd, 'plain-file', 'data', 'workplan.db');
    const app = start(cwd, { SQLITE_PATH: path });
    const [code] = await app.exited;
    expect(code).toBe(1);
    expect(app.output().trim().split('\n')).toHaveLength(1);
    expect(app.output()).toContain(path);
  });

  it('refuses a file another process holds locked with one line and exit 1', async () => {
    const cwd = await scratch();
    const path = join(cwd, 'locked.db');
    const holder = new DatabaseSync(path);
    holder.exec('PRAGMA locking_mode = EXCLUSIVE; CREATE TABLE held (x); BEGIN EXCLUSIVE; INSERT INTO held VALUES (1);');
    try {
      const app = start(cwd, { SQLITE_PATH: path, SQLITE_BUSY_TIMEOUT_MS: '200' });
      const [code] = await app.exited;
      expect(code).toBe(1);
      expect(app.output().trim().split('\n')).toHaveLength(1);
      expect(app.output()).toContain(path);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('lets exactly one of many concurrent creates of one value win across two processes on one file', async () => {
    const cwd = await scratch();
    const apps = [start(cwd), start(cwd)];
    const urls = await Promise.all(apps.map((app) => app.listening()));
    const attempts = Array.from({ length: 40 }, (_, n) => create(urls[n % 2] ?? '', '/api/v1/costCenter', { title: 'Controladoria' }));
    const statuses = (await Promise.all(attempts)).map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(39);
    expect(await Promise.all(apps.map((app) => app.stop()))).toEqual([0, 0]);
  });

  it('writes a backup while serving that a new app reads every record from', async () => {
    const cwd = await scratch();
    const app = start(cwd);
    const url = await app.listening();
    const made = await Promise.all(
      Array.from({ length: 30 }, (_, n) => create(url, '/api/v1/scale', { value: `escala ${n}` }).then(dataOf)),
    );
    const backup = runApp(main, { API_KEYS: key }, { cwd, args: ['backup', 'copy/workplan-backup.db'] });
    const [code] = await backup.exited;
    expect(backup.output()).toContain(join(cwd, 'copy', 'workplan-backup.db'));
    expect(code).toBe(0);
    expect(await app.stop()).toBe(0);

    const restored = start(cwd, { SQLITE_PATH: join(cwd, 'copy', 'workplan-backup.db') });
    const again = await restored.listening();
    const listed = await send(again, { path: '/api/v1/scales', headers: { key } });
    const byCreation = [...made].sort((a, b) => `${a.createdAt ?? ''}${a.id ?? ''}`.localeCompare(`${b.createdAt ?? ''}${b.id ?? ''}`));
    expect((listed.json as { data: unknown[] }).data).toEqual(byCreation);
    expect(await restored.stop()).toBe(0);
  });

  it('says at start that the memory store forgets, and refuses it in production', async () => {
    const cwd = await scratch();
    const memory = start(cwd, { STORAGE: 'memory' });
    await memory.listening();
    expect(memory.output()).toContain('records are kept in this process only and are lost when it ends');
    expect(await memory.stop()).toBe(0);

    const production = start(cwd, { STORAGE: 'memory', NODE_ENV: 'production' });
    const [code] = await production.exited;
    expect(code).toBe(1);
    expect(production.output()).toContain('STORAGE=memory loses every record when the process ends: it is refused when NODE_ENV=production');
  });
});
