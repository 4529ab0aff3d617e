import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIN_NODE_MAJOR, unsupportedNode } from './node-support.js';

interface Manifest {
  readonly engines: { readonly node: string };
  readonly exports: { readonly '.': { readonly types: string; readonly default: string } };
}
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Manifest;

describe('the Node this package runs on', () => {
  it('is refused below Node 24, in one line naming the Node needed and the one found', () => {
    expect(unsupportedNode('20.20.2')).toBe('@workplan/adapter-sqlite needs Node 24 or later (for node:sqlite); this is Node 20.20.2');
    expect(unsupportedNode('23.11.1')).toBe('@workplan/adapter-sqlite needs Node 24 or later (for node:sqlite); this is Node 23.11.1');
  });

  it('is taken from Node 24 on', () => {
    for (const version of ['24.0.0', '26.1.0', '100.0.0']) expect(unsupportedNode(version)).toBeUndefined();
  });

  it('is the one package.json names to package managers', () => {
    expect(manifest.engines.node).toBe(`>=${MIN_NODE_MAJOR}`);
  });
});

describe('the package as Node loads it', () => {
  it('is index, with no top-level await, so require() of it works', () => {
    expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
  });

  it('loads node:sqlite in one module, after the version check', () => {
    const staticImports = readdirSync(new URL('.', import.meta.url))
      .filter((name) => name.endsWith('.ts') && !name.includes('.test.'))
      .filter((name) => /^import (?!type )[^;]*from 'node:sqlite'/mu.test(readFileSync(new URL(name, import.meta.url), 'utf8')));
    expect(staticImports).toEqual([]);
  });
});
