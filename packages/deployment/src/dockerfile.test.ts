// The subpath, not the package: a constant should not load the whole service.
import { NODE_FLAGS } from '@workplan/app/node-flags';
import { describe, expect, it } from 'vitest';
import { readRepositoryFile } from './repository-file.js';

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

/** The Dockerfile's instructions, continuation lines joined and comments dropped. */
function instructions(text: string): Instruction[] {
  const lines = text.split('\n').filter((line) => !line.trimStart().startsWith('#'));
  const joined = lines.join('\n').replace(/\\\n/gu, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/u);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

const all = instructions(readRepositoryFile('Dockerfile'));
const lastFrom = all.findLastIndex((i) => i.keyword === 'FROM');
const runtime = all.slice(lastFrom);
const argsOf = (keyword: string, stage = all) => stage.filter((i) => i.keyword === keyword).map((i) => i.args);

describe('pnpm start', () => {
  it('runs the built app with the V8 settings the service is measured with', () => {
    const { scripts } = JSON.parse(readRepositoryFile('package.json')) as { scripts: Record<string, string> };
    // `exec`: the app replaces the shell pnpm runs it in, so a SIGTERM pnpm passes on reaches it.
    expect(scripts.start).toBe(['exec', 'node', ...NODE_FLAGS, 'packages/app/dist/main.js'].join(' '));
  });
});

describe('Dockerfile', () => {
  it('builds on the Node major the repository pins', () => {
    const nodeMajor = readRepositoryFile('.nvmrc').trim();
    expect(argsOf('ARG')).toContainEqual(expect.stringMatching(new RegExp(`^NODE_IMAGE=node:${nodeMajor}-`, 'u')));
  });

  it('installs the pnpm that package.json names', () => {
    const { packageManager } = JSON.parse(readRepositoryFile('package.json')) as { packageManager: string };
    expect(argsOf('RUN').join('\n')).toContain(packageManager.replace(/\+.*$/u, ''));
  });

  it('installs from the lockfile and ships the app with production dependencies only', () => {
    const runs = argsOf('RUN').join('\n');
    expect(runs).toContain('--frozen-lockfile');
    expect(runs).toMatch(/--filter @workplan\/app deploy .*--prod/u);
  });

  it('runs the built app in production as a user other than root', () => {
    expect(argsOf('ENV', runtime).join(' ')).toMatch(/\bNODE_ENV=production\b/u);
    expect(argsOf('USER', runtime)).toEqual(['node']);
    expect(argsOf('CMD', runtime)).toEqual([JSON.stringify(['node', ...NODE_FLAGS, 'dist/main.js']).replaceAll(',', ', ')]);
  });

  it('keeps the SQLite file in a volume the service user owns', () => {
    expect(argsOf('ENV', runtime).join(' ')).toMatch(/\bSQLITE_PATH=\/data\/workplan\.db\b/u);
    expect(argsOf('VOLUME', runtime)).toEqual(['/data']);
    expect(argsOf('RUN', runtime).join('\n')).toMatch(/chown node:node \/data/u);
  });

  it('reports health from the readiness endpoint, with node and nothing the image lacks', () => {
    const [healthcheck = ''] = argsOf('HEALTHCHECK', runtime);
    expect(healthcheck).toMatch(/CMD \["node", "-e", ".*fetch\(.*127\.0\.0\.1:.*\/health\/ready/u);
  });
});

describe('.dockerignore', () => {
  it('keeps host dependencies and build output out of the build context', () => {
    const ignored = readRepositoryFile('.dockerignore').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', '.git']));
  });
});
