import { readFileSync } from 'node:fs';

/** The text of a file at the repository root. */
export function readRepositoryFile(name: string): string {
  return readFileSync(new URL(`../../../${name}`, import.meta.url), 'utf8');
}
