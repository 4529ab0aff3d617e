import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** The repository root, as a path. */
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** A package.json, as far as these checks read it. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly license?: string;
  readonly repository?: { readonly type?: string; readonly url?: string; readonly directory?: string };
  readonly homepage?: string;
  readonly bugs?: { readonly url?: string };
  readonly publishConfig?: { readonly access?: string };
  readonly exports?: Readonly<Record<string, unknown>>;
  readonly bin?: Readonly<Record<string, string>>;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
}

/** One package of the workspace: its folder (relative to the root and absolute) and manifest. */
export interface WorkspacePackage {
  readonly folder: string;
  readonly path: string;
  readonly manifest: Manifest;
}

/**
 * Every package pnpm-workspace.yaml takes in, read from the file itself so a package added
 * later is checked too. Only the pattern forms the file uses are understood (`dir/*` and
 * plain folders); another form fails here rather than leaving packages out.
 */
export function workspacePackages(): WorkspacePackage[] {
  const workspace = parse(readFileSync(join(repositoryRoot, 'pnpm-workspace.yaml'), 'utf8')) as { packages: string[] };
  const folders = workspace.packages.flatMap((pattern) => {
    if (pattern.endsWith('/*') && !pattern.slice(0, -2).includes('*')) {
      const parent = pattern.slice(0, -2);
      return readdirSync(join(repositoryRoot, parent)).map((name) => `${parent}/${name}`);
    }
    if (pattern.includes('*') || pattern.startsWith('!')) throw new Error(`pnpm-workspace.yaml: pattern "${pattern}" is not understood here`);
    return [pattern];
  });
  return folders
    .filter((folder) => existsSync(join(repositoryRoot, folder, 'package.json')))
    .sort()
    .map((folder) => ({
      folder,
      path: join(repositoryRoot, folder),
      manifest: JSON.parse(readFileSync(join(repositoryRoot, folder, 'package.json'), 'utf8')) as Manifest,
    }));
}

/** The packages meant for the registry: every workspace package not marked `private`. */
export function publishablePackages(): WorkspacePackage[] {
  return workspacePackages().filter((pkg) => pkg.manifest.private !== true);
}

/** Every dependency of a manifest, of every kind, by name. */
export function allDependencies(manifest: Manifest): Record<string, string> {
  return { ...manifest.devDependencies, ...manifest.peerDependencies, ...manifest.dependencies };
}
