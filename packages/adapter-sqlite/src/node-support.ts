/**
 * The first Node major this package runs on: node:sqlite, with the API it uses, is built
 * into Node from there. package.json's `engines` says the same (a test keeps them so).
 */
export const MIN_NODE_MAJOR = 24;

/** Why the Node of `version` (`process.versions.node`) cannot run this package, in one line; undefined when it can. */
export function unsupportedNode(version: string): string | undefined {
  const major = Number(version.split('.')[0]);
  if (major >= MIN_NODE_MAJOR) return undefined;
  return `@workplan/adapter-sqlite needs Node ${MIN_NODE_MAJOR} or later (for node:sqlite); this is Node ${version}`;
}
