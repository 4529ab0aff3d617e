import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Test-only (left out of the build). A file system that fills up for real: a tmpfs of a
// fixed size, which only root (or a process with CAP_SYS_ADMIN) may mount. CI runs as root.

/** A small file system mounted on a folder of its own. */
export interface SmallFileSystem {
  readonly folder: string;
  /** Writes a file that takes every byte left, so the next write that needs room fails with ENOSPC. */
  fill(name: string): void;
  /** Unmounts it and removes its folder. */
  release(): void;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x2e);

/** A tmpfs of `size` (as `mount -o size=` reads it, `2m`), or why it cannot be had here. */
export function mountSmallFileSystem(size: string): SmallFileSystem | string {
  const folder = mkdtempSync(join(tmpdir(), 'workplan-small-fs-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', folder], { encoding: 'utf8' });
  if (mounted.error !== undefined || mounted.status !== 0) {
    rmSync(folder, { recursive: true, force: true });
    const why = (mounted.error?.message ?? mounted.stderr).replace(/\s+/gu, ' ').trim();
    return `mount -t tmpfs -o size=${size} failed (${why}): needs root or CAP_SYS_ADMIN`;
  }
  return {
    folder,
    fill(name) {
      const fd = openSync(join(folder, name), 'w');
      try {
        for (;;) writeSync(fd, CHUNK);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        // A last chunk that did not fit whole: the bytes left, smaller than a chunk.
        try {
          for (;;) writeSync(fd, CHUNK, 0, 512);
        } catch {
          // Full to the last block.
        }
      } finally {
        closeSync(fd);
      }
    },
    release() {
      // Lazy: a process that still holds a file on it (one that failed a test) cannot block the unmount.
      spawnSync('umount', ['-l', folder]);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Whether a test that cannot run here must fail instead of being skipped. */
export const inCi = process.env['CI'] === 'true';

/** Says loudly that `what` will not be tested and why, and that under CI=true it fails. */
export function warnUntested(what: string, why: string): void {
  const line = '!'.repeat(78);
  const outcome = inCi ? 'CI=true: this is a FAILURE.' : 'Skipping (outside CI). In CI (CI=true) this fails.';
  console.warn(`\n${line}\n!!  ${what} is NOT tested: ${why}\n!!  ${outcome}\n${line}\n`);
}
