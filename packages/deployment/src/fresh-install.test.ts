import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from './workspace.js';

const run = promisify(execFile);
let clone = '';

afterAll(async () => {
  if (clone !== '') await rm(clone, { recursive: true, force: true });
});

describe('pnpm install on a fresh clone', { timeout: 120_000 }, () => {
  it('prints no warning: no dependency cycle, no bin missing before the build, no build script left undecided', async () => {
    // The files git tracks, as a clone has them: no node_modules, no dist.
    clone = await mkdtemp(join(tmpdir(), 'workplan-clone-'));
    const { stdout: tracked } = await run('git', ['ls-files', '-z'], { cwd: repositoryRoot, maxBuffer: 16 * 1024 * 1024 });
    for (const file of tracked.split('\0').filter((name) => name !== '')) {
      await mkdir(join(clone, dirname(file)), { recursive: true });
      await cp(join(repositoryRoot, file), join(clone, file)).catch((error: unknown) => {
        // A file deleted in the working tree but not yet in git's index is not part of a clone.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      });
    }
    // Offline: CI's own install has filled the store, and a clone installs the same lockfile.
    const { stdout, stderr } = await run('pnpm', ['install', '--frozen-lockfile', '--offline'], { cwd: clone, env: { ...process.env, CI: 'true' } });
    const printed = `${stdout}\n${stderr}`;
    expect(printed).toMatch(/Done in/u);
    expect(printed).not.toMatch(/WARN|Warning|cyclic|Ignored build scripts|approve-builds/iu);
  });
});
