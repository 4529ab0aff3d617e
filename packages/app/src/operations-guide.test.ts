import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { send } from '@workplan/testing';
import { afterEach, describe, expect, it } from 'vitest';

// The task sections of docs/operations.md are followed step by step: their shell blocks run
// here as written (as the README's tour does), against the built service, in a scratch
// folder. Only the port differs (the page's service listens on 3000, this one on a free
// port), and `pnpm start` / `pnpm backup` run the built service the scripts would build.
// A block that cannot run here (Docker, MongoDB's tools) says why on its first line.

const page = await readFile(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const NOT_RUN = /^# Not run by the tests: \S.*$/mu;
const TASKS = [
  'Run one instance (SQLite)',
  'Run several instances behind a load balancer (MongoDB)',
  'Rotate a key',
  'Back up and restore',
  'Upgrade without downtime',
  'What to alert on',
];

/** The text of the section under `## heading`, its subsections included. */
function section(heading: string): string {
  const start = page.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`docs/operations.md has no heading "## ${heading}"`);
  const end = page.indexOf('\n## ', start + 4);
  return page.slice(start, end === -1 ? undefined : end);
}

/** The shell blocks of a section, each as written, out of the list item it may be indented in. */
function shellBlocks(heading: string): string[] {
  return [...section(heading).matchAll(/^( *)```sh\n([\s\S]*?)^\1```$/gmu)].map(([, indent = '', body = '']) =>
    body.replace(new RegExp(`^${indent}`, 'gmu'), ''),
  );
}

const runnable = new Map(TASKS.map((task) => [task, shellBlocks(task).filter((block) => !NOT_RUN.test(block))]));
const ran = new Set<string>();

/** The `index`th block of `task` that runs here, marked as run. */
function block(task: string, index: number): string {
  const found = runnable.get(task)?.[index];
  if (found === undefined) throw new Error(`"${task}" has no runnable shell block ${index}`);
  ran.add(found);
  return found;
}

/** What runs here for what the page writes: the service on a free port, its scripts on the build. */
function here(script: string, url = 'http://127.0.0.1:3000'): string {
  return script
    .replaceAll('http://127.0.0.1:3000', url)
    .replaceAll('pnpm start', `exec node ${main}`)
    .replaceAll('pnpm backup', `node ${main} backup`);
}

const environment = (cwd: string, more: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: cwd,
  PORT: '0',
  ...more,
});

async function run(script: string, cwd: string, more: Record<string, string> = {}): Promise<string> {
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { cwd, env: environment(cwd, more) });
  return stdout;
}

/** Starts the service as the page's start block does; resolves it and the URL it printed. */
async function start(script: string, cwd: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn('bash', ['-c', here(script)], { cwd, env: environment(cwd), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const found = /listening on (http:\/\/[^\s"]+)/u.exec(output)?.[1];
      if (found !== undefined) resolve(found);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      reject(new Error(`the service exited (${String(code)}) before it listened:\n${output}`));
    });
  });
  return { child, url };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; tries < 100; tries += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never: ${what}`);
}

/** The key of the line of `secrets/api_keys.txt` named `name`. */
async function keyNamed(cwd: string, name: string): Promise<string> {
  const line = (await readFile(join(cwd, 'secrets/api_keys.txt'), 'utf8')).split('\n').find((entry) => entry.endsWith(` name=${name}`));
  expect(line, `a key named ${name}`).toBeDefined();
  return line?.split(' ')[0] ?? '';
}

const statusWith = async (url: string, key: string): Promise<number> => (await send(url, { path: '/api/v1/scales', headers: { key } })).status;

describe('the task sections of docs/operations.md', () => {
  const services: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of services.splice(0)) await stop(child);
  });

  it('have every shell block run here, or say on its first line why it cannot', () => {
    for (const task of TASKS) {
      for (const script of shellBlocks(task)) {
        if (!runnable.get(task)?.includes(script)) expect(script.split('\n')[0]).toMatch(NOT_RUN);
      }
    }
    expect([...runnable.values()].flat().length).toBeGreaterThan(0);
  });

  it('run one instance on SQLite, rotate its key, back it up and restore it, as written', { timeout: 60_000 }, async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'workplan-guide-'));
    const one = 'Run one instance (SQLite)';
    await run(block(one, 0), cwd);
    const firstKey = await keyNamed(cwd, 'RH');

    let service = await start(block(one, 1), cwd);
    services.push(service.child);
    const checked = await run(here(block(one, 2), service.url), cwd);
    expect(checked.match(/\{"success":true/gu)).toHaveLength(2);

    // Rotate: the new key is taken on SIGHUP beside the old one, then the old one is removed.
    const pid = { WORKPLAN_PID: String(service.child.pid) };
    await run(block('Rotate a key', 0), cwd, pid);
    const newKey = await keyNamed(cwd, 'RH-2');
    await until(async () => (await statusWith(service.url, newKey)) === 200, 'the new key taken');
    expect(await statusWith(service.url, firstKey)).toBe(200);
    await run(block('Rotate a key', 1), cwd, pid);
    await until(async () => (await statusWith(service.url, firstKey)) === 401, 'the old key refused');
    expect(await statusWith(service.url, newKey)).toBe(200);

    // Back up while serving; what is written after the backup is gone once it is restored.
    const create = async (value: string): Promise<void> => {
      const created = await send(service.url, { method: 'POST', path: '/api/v1/scale', headers: { key: newKey, 'content-type': 'application/json' }, body: JSON.stringify({ value }) });
      expect(created.status).toBe(201);
    };
    await create('12x36');
    await run(here(block('Back up and restore', 0)), cwd);
    const backups = await readdir(join(cwd, 'backups'));
    expect(backups).toEqual([expect.stringMatching(/^workplan-\d{4}-\d{2}-\d{2}\.db$/u)]);
    await create('6x1');
    await stop(service.child);
    await run(block('Back up and restore', 1), cwd, { BACKUP: `backups/${backups[0] ?? ''}` });

    service = await start(block(one, 1), cwd);
    services.push(service.child);
    const listed = await send(service.url, { path: '/api/v1/scales', headers: { key: newKey } });
    expect((listed.json as { data: { value: string }[] }).data.map((scale) => scale.value)).toEqual(['12x36']);
  });

  it('make the secret files of several instances as docker-compose.several.yml reads them', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'workplan-guide-'));
    await run(block('Run several instances behind a load balancer (MongoDB)', 0), cwd);
    const read = (name: string): Promise<string> => readFile(join(cwd, 'secrets', name), 'utf8');
    expect(await read('api_keys.txt')).toMatch(/^[\w-]{32}\n$/u);
    expect(await read('mongodb_password.txt')).toMatch(/^[\w-]{32}\n$/u);
    // mongod takes a key file of 6 to 1024 base64 characters.
    const keyfile = (await read('mongodb_keyfile.txt')).trim();
    expect(keyfile).toMatch(/^[A-Za-z0-9+/]+={0,2}$/u);
    expect(keyfile.length).toBeGreaterThanOrEqual(6);
    expect(keyfile.length).toBeLessThanOrEqual(1024);
  });

  it('ran every block that runs here', () => {
    // Last in the file: the scenarios above took each block they ran.
    expect([...runnable.values()].flat().filter((script) => !ran.has(script))).toEqual([]);
  });
});
