import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { damageTablePage, runApp, send, type AppProcess, type RunOptions } from '@workplan/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { inCi, readOnlyLauncher, readOnlyUnavailable, warnReadOnlyUnavailable } from './testing/read-only-user.js';

// Issue 27's faults of the SQLite file met at start: each file is refused with one line
// that names it, and left byte for byte as it was. The built app (`pnpm test` builds
// first) as a process of its own, since the fault lives in the file system.

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const key = 'start-faults-key-0123456789';

const running: AppProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop()));
});

function run(cwd: string, env: Record<string, string>, options: RunOptions = {}): AppProcess {
  const app = runApp(main, { PORT: '0', HOST: '127.0.0.1', API_KEYS: key, LOG_LEVEL: 'silent', ...env }, { cwd, ...options });
  running.push(app);
  return app;
}

/** How a run ended: its exit code and output lines, or `started` if it listened instead. */
async function outcomeOf(app: AppProcess): Promise<{ code: number | null; lines: string[] } | 'started'> {
  return Promise.race([
    app.exited.then(([code]) => ({ code, lines: app.output().trim().split('\n') })),
    app.listening().then(() => 'started' as const),
  ]);
}

/** Every file of `folder` with a digest of its bytes: what a refusal must leave as it was. */
function snapshot(folder: string): Record<string, string> {
  const digest = (name: string) => createHash('sha256').update(readFileSync(join(folder, name))).digest('hex');
  return Object.fromEntries(readdirSync(folder).map((name) => [name, digest(name)] as const));
}

/** A workplan file with records in it, made by the app itself; `crash` ends it with kill -9, leaving its WAL behind. */
async function workplanFile(folder: string, ending: 'stop' | 'crash' = 'stop'): Promise<string> {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, 'workplan.db');
  const app = run(folder, { SQLITE_PATH: path });
  const url = await app.listening();
  for (let n = 0; n < 200; n += 1) {
    const body = JSON.stringify({ value: `escala ${String(n)} ${'x'.repeat(40)}` });
    const created = await send(url, { method: 'POST', path: '/api/v1/scale', headers: { 'content-type': 'application/json', key }, body });
    expect(created.status).toBe(201);
  }
  if (ending === 'crash') {
    app.child.kill('SIGKILL');
    await app.exited;
  } else {
    expect(await app.stop()).toBe(0);
  }
  return path;
}

/** What `use` gives while another server holds a loopback port, which it is given. */
async function whilePortTaken<T>(use: (port: number) => Promise<T>): Promise<T> {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  try {
    return await use((taken.address() as AddressInfo).port);
  } finally {
    taken.close();
  }
}

function sqliteFile(path: string, sql: string): string {
  const db = new DatabaseSync(path);
  db.exec(sql);
  db.close();
  return path;
}

const launcher = readOnlyLauncher();
const readOnlyTest = 'SQLite fault 3: a file read-only to the app';
if (launcher === undefined) warnReadOnlyUnavailable(readOnlyTest);

describe('the app refuses at start a SQLite file it must not or cannot use, in one line naming it, leaving it as it was', () => {
  // As root the app runs through setpriv without the capabilities that pass permission bits
  // (testing/read-only-user.ts); as any other user, chmod alone does it. Skipped where
  // neither can be had, but under CI=true, where it runs to fail.
  it.skipIf(launcher === undefined && !inCi).each([
    ['with its folder, -wal and -shm, left by a crash', 'crash'],
    ['in a folder it may write', 'stop'],
  ] as const)(`${readOnlyTest}, %s, is refused, naming the file and the cause`, async (_, ending) => {
    if (launcher === undefined) throw new Error(readOnlyUnavailable(readOnlyTest));
    const folder = join(mkdtempSync(join(tmpdir(), 'workplan-start-faults-')), 'data');
    const path = await workplanFile(folder, ending);
    for (const name of readdirSync(folder)) chmodSync(join(folder, name), 0o444);
    if (ending === 'crash') chmodSync(folder, 0o555);
    const before = snapshot(folder);
    const outcome = await outcomeOf(run(folder, { SQLITE_PATH: path }, { launcher }));
    expect(outcome).toMatchObject({ code: 1, lines: [expect.stringContaining(path)] });
    expect(outcome === 'started' ? '' : outcome.lines[0]).toMatch(/may not write the file \(EACCES\)/u);
    expect(snapshot(folder)).toEqual(before);
  });

  it.each([
    ['another application (a payroll table)', (path: string) => sqliteFile(path, "CREATE TABLE payroll (employee TEXT, cents INTEGER); INSERT INTO payroll VALUES ('Ana', 512000)")],
    ['a WAL-mode file of another application', (path: string) => sqliteFile(path, 'PRAGMA journal_mode = WAL; CREATE TABLE payroll (employee TEXT)')],
    ['a file with a work_schedules table of another shape', (path: string) => sqliteFile(path, "CREATE TABLE work_schedules (name TEXT, hours INTEGER); INSERT INTO work_schedules VALUES ('12x36', 12)")],
  ])('SQLite fault 5: a database of %s is refused as not workplan\'s, unchanged, with no -wal or -shm left', async (_, make) => {
    const folder = mkdtempSync(join(tmpdir(), 'workplan-start-faults-'));
    const path = make(join(folder, 'other.db'));
    const before = snapshot(folder);
    const outcome = await outcomeOf(run(folder, { SQLITE_PATH: path }));
    expect(outcome).toMatchObject({ code: 1, lines: [expect.stringContaining(`${path} is not a workplan database`)] });
    expect(snapshot(folder)).toEqual(before);
  });

  it('a SQLITE_PATH that names a folder (also written as one, ending in /) or a device is refused in one line naming it, making nothing', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'workplan-start-faults-'));
    const folder = join(cwd, 'newdir');
    for (const [given, named, what] of [
      ['newdir/', `${folder}/`, 'written as a folder'],
      [cwd, cwd, 'a folder'],
      ['/dev/null', '/dev/null', 'a device, a pipe or a socket'],
    ] as const) {
      const outcome = await outcomeOf(run(cwd, { SQLITE_PATH: given }));
      expect(outcome).toEqual({ code: 1, lines: [`workplan did not start: ${named} is ${what}: give the path of a database file`] });
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('a start that made the file and then cannot listen (the port taken) leaves no file, so the next start says again that it makes one', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'workplan-start-faults-'));
    const outcome = await whilePortTaken((port) => outcomeOf(run(cwd, { SQLITE_PATH: join(cwd, 'new.db'), PORT: String(port) })));
    expect(outcome).toMatchObject({ code: 1 });
    expect(outcome === 'started' ? [] : outcome.lines).toContainEqual(expect.stringMatching(/^workplan did not start: .*EADDRINUSE/u));
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('a start through a link to a file not made yet that cannot listen removes the file it made, and keeps the link', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'workplan-start-faults-'));
    mkdirSync(join(cwd, 'real'));
    symlinkSync(join(cwd, 'real', 'new.db'), join(cwd, 'link.db'));
    const outcome = await whilePortTaken((port) => outcomeOf(run(cwd, { SQLITE_PATH: join(cwd, 'link.db'), PORT: String(port) })));
    expect(outcome).toMatchObject({ code: 1 });
    expect(readdirSync(cwd).sort()).toEqual(['link.db', 'real']);
    expect(readlinkSync(join(cwd, 'link.db'))).toBe(join(cwd, 'real', 'new.db'));
    expect(readdirSync(join(cwd, 'real'))).toEqual([]);
  });

  it('SQLite fault 5: a workplan file with a damaged page is refused as corrupt, unchanged', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'workplan-start-faults-'));
    const path = await workplanFile(folder);
    damageTablePage(path, 'work_schedules');
    const before = snapshot(folder);
    const outcome = await outcomeOf(run(folder, { SQLITE_PATH: path }));
    expect(outcome).toMatchObject({ code: 1, lines: [expect.stringContaining(`${path} is corrupt`)] });
    expect(snapshot(folder)).toEqual(before);
  });
});

describe('SQLite fault 6: the backup command says "backup" and names the file it failed on', () => {
  async function backup(cwd: string, source: string, target: string): Promise<string[]> {
    const app = runApp(main, { API_KEYS: key, SQLITE_PATH: source }, { cwd, args: ['backup', target] });
    const [code] = await app.exited;
    expect(code).toBe(1);
    return app.output().trim().split('\n');
  }

  it('a source that is no database, or is missing, is named, and no copy is made', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'workplan-start-faults-'));
    const notes = join(cwd, 'notes.txt');
    writeFileSync(notes, 'not a database\n'.repeat(50));
    expect(await backup(cwd, notes, 'copy.db')).toEqual([`workplan backup failed: ${notes} is not a SQLite database`]);
    const missing = join(cwd, 'missing.db');
    expect(await backup(cwd, missing, 'copy.db')).toEqual([`workplan backup failed: ${missing} cannot be read (unable to open database file)`]);
    expect(readdirSync(cwd)).toEqual(['notes.txt']);
  });

  it('a target that is no database, or cannot be made, is named, and left as it was', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'workplan-start-faults-'));
    const source = await workplanFile(join(cwd, 'data'));
    const notes = join(cwd, 'notes.txt');
    writeFileSync(notes, 'not a database\n'.repeat(50));
    const [toNotes = ''] = await backup(cwd, source, 'notes.txt');
    expect(toNotes).toBe(`workplan backup failed: ${notes} is not a SQLite database`);
    expect(readFileSync(notes, 'utf8')).toBe('not a database\n'.repeat(50));
    const underFile = join(notes, 'copy.db');
    const [toUnderFile = ''] = await backup(cwd, source, underFile);
    expect(toUnderFile).toBe(`workplan backup failed: ${underFile} cannot be created or written (unable to open database file)`);
    expect(existsSync(join(cwd, 'data', 'workplan.db'))).toBe(true);
  });

  it('a source or a target written as a folder (ending in /) is refused as the service refuses it, and no copy is made', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'workplan-start-faults-'));
    const source = await workplanFile(join(cwd, 'data'));
    const before = snapshot(join(cwd, 'data'));
    expect(await backup(cwd, `${source}/`, 'copy.db')).toEqual([`workplan backup failed: ${source}/ is written as a folder: give the path of a database file`]);
    expect(await backup(cwd, source, 'copy/')).toEqual([`workplan backup failed: ${join(cwd, 'copy')}/ is written as a folder: give the path of a database file`]);
    expect(readdirSync(cwd)).toEqual(['data']);
    expect(snapshot(join(cwd, 'data'))).toEqual(before);
  });

  it('a damaged source is named as corrupt, with no copy left that would pass for a backup', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'workplan-start-faults-'));
    const source = await workplanFile(join(cwd, 'data'));
    damageTablePage(source, 'work_schedules');
    const [line = ''] = await backup(cwd, source, 'copy.db');
    expect(line).toMatch(new RegExp(`^workplan backup failed: ${escaped(source)} is corrupt \\(quick_check: .+\\); restore it from a backup$`));
    expect(readdirSync(cwd)).toEqual(['data']);
  });

  it('a target that is the file being copied, or its write-ahead log, is refused before anything is written', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'workplan-start-faults-'));
    const source = await workplanFile(join(cwd, 'data'));
    const before = snapshot(join(cwd, 'data'));
    for (const target of ['data/workplan.db', './data/../data/workplan.db', 'data/workplan.db-wal']) {
      const named = join(cwd, target);
      expect(await backup(cwd, source, target)).toEqual([
        `workplan backup failed: ${named} is the database being copied or a file SQLite keeps beside it: name another file for the copy`,
      ]);
    }
    expect(snapshot(join(cwd, 'data'))).toEqual(before);
  });
});

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
