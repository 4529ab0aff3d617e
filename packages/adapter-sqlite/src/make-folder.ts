import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * `mkdir -p`, one level at a time. Node's own `recursive: true` spins forever when a
 * parent exists but mkdir under it answers ENOENT (a path under /proc, a dangling
 * symlink): a start-up would hang instead of failing, so each level is made once here
 * and the first failure is thrown.
 */
export function makeFolder(folder: string): void {
  const missing: string[] = [];
  for (let current = folder; !existsSync(current); current = dirname(current)) {
    missing.unshift(current);
    if (dirname(current) === current) break;
  }
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (error) {
      // Another process may have made the same folder a moment ago; that is success.
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
    }
  }
}
