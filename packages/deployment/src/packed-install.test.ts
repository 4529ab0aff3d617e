import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRepositoryFile } from './repository-file.js';
import { allDependencies, publishablePackages, workspacePackages, type Manifest } from './workspace.js';

// What a user of the registry gets: every publishable package packed as `pnpm publish`
// would pack it, then installed from the tarballs into a new project outside the
// workspace, type-checked and run there. A minute or so, most of it the install.

const run = promisify(execFile);
const publishable = publishablePackages();

interface Packed {
  readonly manifest: Manifest;
  readonly tarball: string;
  /** Where the tarball was unpacked: its `package/` folder. */
  readonly unpacked: string;
  /** The files in the tarball, relative to its `package/` folder. */
  readonly files: readonly string[];
  /** package.json as packed, with `workspace:` ranges rewritten. */
  readonly packedManifest: Manifest;
}

/** The packages whose README examples need nothing outside the process, so the test runs them too. */
const RUNS_ALONE = ['@workplan/core', '@workplan/adapter-memory', '@workplan/adapter-sqlite', '@workplan/adapter-express'];

interface ReadmeExample {
  readonly packageName: string;
  /** Its file in the new project: a TypeScript module, which Node runs by stripping the types. */
  readonly file: string;
  readonly code: string;
}

/**
 * The first \`\`\`ts block of every publishable package's README: the example a reader copies
 * whole, so it must be a program on its own (later blocks may be excerpts that lean on it).
 */
async function readmeExamples(): Promise<ReadmeExample[]> {
  const examples: ReadmeExample[] = [];
  for (const pkg of publishable) {
    const readme = await readFile(join(pkg.path, 'README.md'), 'utf8');
    const code = /^```ts\n([\s\S]*?)^```$/mu.exec(readme)?.[1];
    if (code === undefined) continue;
    examples.push({ packageName: pkg.manifest.name, file: `readme-${pkg.folder.split('/').at(-1) ?? ''}.mts`, code: `${code}export {};\n` });
  }
  return examples;
}

/** The ids the core makes when given no generator. */
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u;

let scratch = '';
const packed = new Map<string, Packed>();
let project = '';

/** The version the workspace's own tests use of a third-party package, so the install finds it in the store. */
function workspaceVersionOf(name: string): string {
  const root = JSON.parse(readRepositoryFile('package.json')) as Manifest;
  for (const manifest of [root, ...workspacePackages().map((pkg) => pkg.manifest)]) {
    const range = manifest.devDependencies?.[name] ?? manifest.dependencies?.[name];
    if (range !== undefined && !range.startsWith('workspace:')) return range;
  }
  throw new Error(`no workspace package installs ${name}`);
}

async function pack(pkg: (typeof publishable)[number], into: string): Promise<Packed> {
  // `pnpm pack` runs the package's prepack (the build) and rewrites `workspace:` ranges, as publish does.
  const { stdout } = await run('pnpm', ['pack', '--pack-destination', into], { cwd: pkg.path });
  const tarball = stdout.trim().split('\n').at(-1) ?? '';
  const listing = (await run('tar', ['-tzf', tarball])).stdout.trim().split('\n');
  const files = listing.map((line) => line.replace(/^package\//u, ''));
  const unpacked = join(into, 'unpacked', pkg.folder);
  await mkdir(unpacked, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', unpacked]);
  const packedManifest = JSON.parse(await readFile(join(unpacked, 'package/package.json'), 'utf8')) as Manifest;
  return { manifest: pkg.manifest, tarball, unpacked: join(unpacked, 'package'), files, packedManifest };
}

/** The targets of every `exports` entry, as paths inside the package. */
function exportTargets(exports: Manifest['exports']): string[] {
  const targets: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') targets.push(value.replace(/^\.\//u, ''));
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(walk);
  };
  walk(exports);
  return targets;
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'workplan-packed-'));
  const tarballs = join(scratch, 'tarballs');
  await mkdir(tarballs);
  // One at a time: each prepack builds with tsc -b, and builds of shared references must not overlap.
  for (const pkg of publishable) packed.set(pkg.manifest.name, await pack(pkg, tarballs));
}, 180_000);

afterAll(async () => {
  if (scratch !== '') await rm(scratch, { recursive: true, force: true });
});

describe.each(publishable.map((pkg) => [pkg.manifest.name] as const))('the tarball of %s', (name) => {
  const of = (): Packed => packed.get(name) ?? expect.unreachable(`${name} was not packed`);

  it('holds the license, the readme, the changelog and the manifest', () => {
    expect(of().files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'CHANGELOG.md', 'package.json']));
  });

  it('holds every file its exports and bins point at', () => {
    const { files, packedManifest } = of();
    const targets = [...exportTargets(packedManifest.exports), ...Object.values(packedManifest.bin ?? {})];
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) expect(files, `${name} exports ${target}`).toContain(target.replace(/^\.\//u, ''));
  });

  it('holds no build info, no test and no test helper', () => {
    expect(of().files.filter((file) => /\.tsbuildinfo$|\.test\.|(^|\/)testing\//u.test(file))).toEqual([]);
  });

  it('ships the source of every source map beside it', async () => {
    const { files, unpacked } = of();
    const maps = files.filter((file) => file.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(0);
    for (const mapFile of maps) {
      const map = JSON.parse(await readFile(join(unpacked, mapFile), 'utf8')) as { sources: string[] };
      for (const source of map.sources) {
        expect(files, `${mapFile} names ${source}`).toContain(posix.join(posix.dirname(mapFile), source));
      }
    }
  });

  it('says in its README that it is ES modules only, and how CommonJS loads it', async () => {
    const readme = await readFile(join(of().unpacked, 'README.md'), 'utf8');
    expect(readme).toContain('ES modules only');
    expect(readme).toContain(`require('${name}')`);
    expect(readme).toContain(`await import('${name}')`);
  });

  it('names versions, not workspace links, in what it depends on', () => {
    expect(JSON.stringify(allDependencies(of().packedManifest))).not.toContain('workspace:');
  });
});

describe('a new project installing the tarballs', { timeout: 300_000 }, () => {
  beforeAll(async () => {
    project = join(scratch, 'project');
    await mkdir(project);
    const own = Object.fromEntries([...packed.values()].map(({ manifest, tarball }) => [manifest.name, `file:${tarball}`]));
    // Every peer the packages ask for, at the version the workspace tests with (so the pnpm
    // store has it), and the compiler and Node types for the type check.
    const peers = [...packed.values()].flatMap(({ packedManifest }) => Object.keys(packedManifest.peerDependencies ?? {}));
    const thirdParty = [...new Set([...peers.filter((peer) => !(peer in own)), 'typescript', '@types/node'])];
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'workplan-user',
        private: true,
        type: 'module',
        dependencies: { ...own, ...Object.fromEntries(thirdParty.map((name) => [name, workspaceVersionOf(name)])) },
      }),
    );
    // From the store where it can (--prefer-offline), so a warm machine needs no network; a
    // cold one fetches what is missing. Never the workspace: this folder is outside it.
    await run('pnpm', ['install', '--prefer-offline', '--config.strict-peer-dependencies=true'], { cwd: project });
  }, 300_000);

  it('type-checks a program using the core and an adapter, and every README example, against the published declarations', async () => {
    const imports = [...packed.keys()].map((name, n) => `import * as package${n} from '${name}';`).join('\n');
    await writeFile(
      join(project, 'program.mts'),
      `${imports}
import { createWorkplan, type CostCenter, type WorkSchedule } from '@workplan/core';
import { createMemoryStorage } from '@workplan/adapter-memory';

void [${[...packed.keys()].map((_, n) => `package${n}`).join(', ')}];
const { repositories, changes } = createMemoryStorage();
const workplan = createWorkplan({ repositories, changes });
const schedule: WorkSchedule = await workplan.workSchedules.create({ value: '12x36' });
const center: CostCenter = await workplan.costCenters.create({ title: 'Financeiro' });
// @ts-expect-error -- a work schedule is written with \`value\`, not \`title\`
await workplan.workSchedules.create({ title: 'Financeiro' }).catch(() => undefined);
console.log(schedule.value, center.title);
`,
    );
    const examples = await readmeExamples();
    await Promise.all(examples.map((example) => writeFile(join(project, example.file), example.code)));
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2024', module: 'nodenext', moduleResolution: 'nodenext', strict: true,
          exactOptionalPropertyTypes: true, noEmit: true, skipLibCheck: false, types: ['node'],
        },
        files: ['program.mts', ...examples.map((example) => example.file)],
      }),
    );
    const check = await run(join(project, 'node_modules/.bin/tsc'), ['-p', project], { cwd: project }).catch((error: unknown) => error);
    expect(check).toMatchObject({ stdout: '', stderr: '' });
  });

  it.each(RUNS_ALONE)('runs the README example of %s as written', async (name) => {
    const examples = (await readmeExamples()).filter((example) => example.packageName === name);
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      await writeFile(join(project, example.file), example.code);
      const { stdout } = await run(process.execPath, [example.file], { cwd: project, timeout: 30_000 });
      expect(stdout.length, example.file).toBeGreaterThan(0);
    }
  });

  it('loads every package with import and runs a create against the memory store, with the default ids', async () => {
    await writeFile(
      join(project, 'esm.mjs'),
      `for (const name of ${JSON.stringify([...packed.keys()])}) {
  const loaded = await import(name);
  if (Object.keys(loaded).length === 0) throw new Error(name + ' exports nothing');
}
const { createWorkplan } = await import('@workplan/core');
const { createMemoryStorage } = await import('@workplan/adapter-memory');
const { repositories, changes } = createMemoryStorage();
const workplan = createWorkplan({ repositories, changes });
const created = await workplan.workSchedules.create({ value: ' 12x36 ' });
console.log(JSON.stringify({ created, listed: (await workplan.workSchedules.list()).records.length }));
`,
    );
    const { stdout } = await run(process.execPath, ['esm.mjs'], { cwd: project });
    const result = JSON.parse(stdout) as { created: { id: string; value: string }; listed: number };
    expect(result).toMatchObject({ created: { value: '12x36' }, listed: 1 });
    expect(result.created.id).toMatch(UUID_V7);
  });

  it('loads every package with require, as each README tells a CommonJS caller, and creates a record', async () => {
    await writeFile(
      join(project, 'commonjs.cjs'),
      `for (const name of ${JSON.stringify([...packed.keys()])}) {
  if (Object.keys(require(name)).length === 0) throw new Error(name + ' exports nothing');
}
const { createWorkplan } = require('@workplan/core');
const { createMemoryStorage } = require('@workplan/adapter-memory');
const { repositories, changes } = createMemoryStorage();
const workplan = createWorkplan({ repositories, changes });
workplan.costCenters.create({ title: 'Financeiro' }).then((created) => console.log(JSON.stringify(created)));
`,
    );
    const { stdout } = await run(process.execPath, ['commonjs.cjs'], { cwd: project });
    const created = JSON.parse(stdout) as { id: string; title: string };
    expect(created.title).toBe('Financeiro');
    expect(created.id).toMatch(UUID_V7);
  });
});
