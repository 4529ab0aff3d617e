import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRepositoryFile } from './repository-file.js';
import { allDependencies, publishablePackages, workspacePackages, type WorkspacePackage } from './workspace.js';

const publishable = publishablePackages();
const rootLicense = readRepositoryFile('LICENSE');

/** Frameworks and drivers the user's application brings: a library names them as peers only. */
const BROUGHT_BY_THE_USER = ['express', 'mongodb'];

/** A range a user's install may move within: a caret range, or the workspace's own `workspace:^`. */
const CARET = /^(workspace:\^$|\^\d)/u;

describe('the publishable packages', () => {
  it('are found in the workspace: the core, the adapters and the client at least', () => {
    const names = publishable.map((pkg) => pkg.manifest.name);
    expect(names).toEqual(expect.arrayContaining(['@workplan/core', '@workplan/adapter-memory', '@workplan/client']));
    expect(names).not.toContain('@workplan/app');
  });

  describe.each(publishable.map((pkg) => [pkg.manifest.name, pkg] as const))('%s', (_name, pkg: WorkspacePackage) => {
    const { manifest } = pkg;

    it('carries the MIT license, with the LICENSE file the repository has', () => {
      expect(manifest.license).toBe('MIT');
      expect(readFileSync(join(pkg.path, 'LICENSE'), 'utf8')).toBe(rootLicense);
    });

    it('says where it comes from, where to read about it and where to report a bug', () => {
      expect(manifest.repository?.type).toBe('git');
      expect(manifest.repository?.url).toMatch(/^git\+https:\/\/.+\.git$/u);
      expect(manifest.repository?.directory).toBe(pkg.folder);
      expect(manifest.homepage).toMatch(new RegExp(`^https://.+/${pkg.folder}#readme$`, 'u'));
      expect(manifest.bugs?.url).toMatch(/^https:\/\/.+\/issues$/u);
    });

    it('is published with public access, scoped as it is', () => {
      expect(manifest.publishConfig?.access).toBe('public');
    });

    it('keeps a CHANGELOG.md written by changesets', () => {
      expect(existsSync(join(pkg.path, 'CHANGELOG.md'))).toBe(true);
      expect(readFileSync(join(pkg.path, 'CHANGELOG.md'), 'utf8')).toMatch(new RegExp(`^# ${manifest.name}\\n\\n## \\d+\\.\\d+\\.\\d+`, 'u'));
    });

    it('pins nothing a user installs: dependencies and peers are caret ranges', () => {
      for (const [name, range] of Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })) {
        expect(range, `${manifest.name}: ${name}`).toMatch(CARET);
      }
    });

    it('asks for the workspace packages, frameworks and drivers it uses as peers, never as dependencies', () => {
      const dependencies = Object.keys(manifest.dependencies ?? {});
      expect(dependencies.filter((name) => name.startsWith('@workplan/') || BROUGHT_BY_THE_USER.includes(name))).toEqual([]);
    });

    it('installs each of its peers for its own tests', () => {
      for (const peer of Object.keys(manifest.peerDependencies ?? {})) {
        if (manifest.peerDependenciesMeta?.[peer]?.optional === true) continue;
        expect(manifest.devDependencies, `${peer} is a peer but not a devDependency`).toHaveProperty([peer]);
      }
    });
  });

  it('adapters take @workplan/core as a peer', () => {
    for (const { manifest } of publishable.filter((pkg) => pkg.manifest.name.startsWith('@workplan/adapter-'))) {
      expect(manifest.peerDependencies, manifest.name).toHaveProperty(['@workplan/core'], 'workspace:^');
    }
  });
});

describe('the workspace', () => {
  it('has no dependency cycle between its packages, whatever the kind of dependency', () => {
    const packages = workspacePackages();
    const names = new Set(packages.map((pkg) => pkg.manifest.name));
    const edges = new Map(
      packages.map((pkg) => [pkg.manifest.name, Object.keys(allDependencies(pkg.manifest)).filter((name) => names.has(name))]),
    );
    const cycles: string[] = [];
    const walk = (name: string, path: string[]): void => {
      if (path.includes(name)) {
        cycles.push([...path.slice(path.indexOf(name)), name].join(' -> '));
        return;
      }
      for (const next of edges.get(name) ?? []) walk(next, [...path, name]);
    };
    for (const name of names) walk(name, []);
    expect(cycles).toEqual([]);
  });

  // Published or not: a package with `exports` shows a CommonJS caller how to load it.
  it.each(workspacePackages().map((pkg) => [pkg.manifest.name, pkg] as const))('%s says in its README that it is ES modules only', (name, pkg) => {
    const readme = readFileSync(join(pkg.path, 'README.md'), 'utf8');
    expect(readme).toContain('ES modules only');
    if (pkg.manifest.exports !== undefined) expect(readme).toContain(`require('${name}')`);
  });
});
