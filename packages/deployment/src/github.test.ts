import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readRepositoryFile } from './repository-file.js';

interface Step {
  readonly uses?: string;
  readonly run?: string;
}

interface Job {
  readonly 'runs-on'?: string;
  readonly 'timeout-minutes'?: number;
  readonly env?: Record<string, string>;
  readonly steps?: readonly Step[];
}

const workflow = parse(readRepositoryFile('.github/workflows/ci.yml')) as {
  on?: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs?: Record<string, Job>;
};
const dependabot = parse(readRepositoryFile('.github/dependabot.yml')) as {
  version?: number;
  updates?: readonly { 'package-ecosystem': string; directory: string; schedule?: { interval?: string } }[];
};

describe('.github/workflows/ci.yml', () => {
  const jobs = Object.values(workflow.jobs ?? {});

  it('runs on pushes to main and on pull requests, with read-only access to the repository', () => {
    expect(workflow.on).toHaveProperty('push.branches', ['main']);
    expect(workflow.on).toHaveProperty('pull_request');
    expect(workflow.permissions).toEqual({ contents: 'read' });
  });

  it('runs .ci/run, the same script as every other CI, after checking the repository out', () => {
    expect(jobs).toHaveLength(1);
    const steps = jobs[0]?.steps ?? [];
    expect(steps[0]?.uses).toMatch(/^actions\/checkout@/u);
    expect(steps.map((step) => step.run).filter((run) => run !== undefined)).toEqual(['bash .ci/run']);
  });

  it('stops within the 90 minutes CI is given', () => {
    expect(jobs[0]?.['timeout-minutes']).toBeLessThanOrEqual(90);
  });

  it('points the /docs browser test at a browser the runner has, which .ci/run then uses', () => {
    expect(jobs[0]?.env?.CHROMIUM_PATH).toMatch(/^\//u);
    expect(readRepositoryFile('.ci/run')).toContain('"$CHROMIUM_PATH" --version');
  });

  it('has .ci/run install promtool (Debian\'s prometheus package) where it is missing, for the alerting rules\' tests', () => {
    const run = readRepositoryFile('.ci/run');
    expect(run).toContain('command -v promtool > /dev/null || missing+=(prometheus)');
    expect(run).toMatch(/apt-get install -y -qq "\$\{missing\[@\]\}"/u);
  });
});

describe('.github/dependabot.yml', () => {
  it('keeps the npm packages, the Docker images (Dockerfile and compose file) and the actions up to date', () => {
    expect(dependabot.version).toBe(2);
    const ecosystems = (dependabot.updates ?? []).map((update) => update['package-ecosystem']).sort();
    expect(ecosystems).toEqual(['docker', 'docker-compose', 'github-actions', 'npm']);
    for (const update of dependabot.updates ?? []) {
      expect(update.directory).toBe('/');
      expect(update.schedule?.interval).toBeDefined();
    }
  });
});
