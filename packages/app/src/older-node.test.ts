import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Each way into workplan, run on a Node older than it needs, says in one line which Node it
// needs and which it found, rather than a stack trace of ERR_UNKNOWN_BUILTIN_MODULE. Run on a
// real older Node: the first `node` on PATH below 24 (CI's machine has one of its own).

const NEEDED_MAJOR = 24;
const appFolder = fileURLToPath(new URL('..', import.meta.url));
const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
const inCi = process.env.CI === 'true';

/** The first `node` on PATH older than NEEDED_MAJOR, with its version. */
function findOlderNode(): { readonly path: string; readonly version: string } | undefined {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    const path = join(folder, 'node');
    if (folder === '' || !existsSync(path)) continue;
    const version = execFileSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    if (Number(version.split('.')[0]) < NEEDED_MAJOR) return { path, version };
  }
  return undefined;
}

const older = findOlderNode();
if (older === undefined) {
  const line = '!'.repeat(78);
  console.warn(
    [
      line,
      `!!  older-node.test.ts: no node older than ${NEEDED_MAJOR} on PATH, so start-up on one is NOT tested.`,
      '!!  Put one on PATH after the toolchain (Debian/Ubuntu: apt-get install -y nodejs).',
      `!!  ${inCi ? 'CI=true: this is a FAILURE.' : 'Skipping (outside CI). In CI (CI=true) this fails.'}`,
      line,
    ].join('\n'),
  );
}

/** Runs a command to its end, or for 60 s at most, with its output and exit code. */
async function run(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? { PATH: process.env.PATH ?? '' }, detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Whatever it started (a build, a server) goes with it if it runs on when it should have stopped.
  const limit = setTimeout(() => process.kill(-(child.pid ?? 0), 'SIGKILL'), 60_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(limit);
  return { code, stdout, stderr };
}

describe(`workplan on Node ${older?.version ?? '(none older found)'}`, { timeout: 70_000 }, () => {
  it.runIf(older === undefined && inCi)(`has a Node older than ${NEEDED_MAJOR} on PATH to run on (CI=true)`, () => {
    throw new Error(`no node older than ${NEEDED_MAJOR} on PATH`);
  });

  describe.runIf(older !== undefined)('says which Node it needs, in one line', () => {
    const { path: node, version } = older ?? { path: '', version: '' };
    const refusal = `@workplan/adapter-sqlite needs Node ${NEEDED_MAJOR} or later (for node:sqlite); this is Node ${version}`;

    it.each([['the built entry point', 'dist/main.js'], ['the workplan command', 'bin/workplan.js']])('%s', async (_name, file) => {
      const { code, stdout, stderr } = await run(node, [join(appFolder, file)], { cwd: appFolder });
      expect({ code, stdout, stderr }).toEqual({ code: 1, stdout: '', stderr: `workplan did not start: ${refusal}\n` });
    });

    it('an import of @workplan/adapter-sqlite, rejected with that line as its message', async () => {
      const script = "import('@workplan/adapter-sqlite').then(() => console.log('loaded'), (error) => console.log(error.message))";
      const { code, stdout, stderr } = await run(node, ['--input-type=module', '-e', script], { cwd: appFolder });
      expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: `${refusal}\n`, stderr: '' });
    });

    it.each(['start', 'dev'])('pnpm %s, before building or running anything', async (script) => {
      const env = { PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '' };
      const { code, stdout, stderr } = await run('pnpm', [script], { cwd: repositoryRoot, env });
      const output = stdout + stderr;
      expect(code).not.toBe(0);
      expect(stderr.split('\n')).toContain(`workplan did not start: it needs Node ${NEEDED_MAJOR} or later; this is Node ${version}`);
      expect(output).not.toContain('ERR_UNKNOWN_BUILTIN_MODULE');
      // Nothing was built or run: pnpm echoes only the check's own command line.
      expect(output.match(/^> .*$/gmu)).toEqual([`> workplan@ ${script === 'start' ? 'prestart' : 'dev'} ${repositoryRoot.replace(/\/$/u, '')}`, expect.stringMatching(/^> node scripts\/node-check\.mjs && /u)]);
    });
  });
});
