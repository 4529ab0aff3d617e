import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Test-only (left out of the build). A file that is read-only to the app's user: as any
// user but root, `chmod a-w` is enough. Root (CI runs as root) writes past permission
// bits through two capabilities, so there the app is run through util-linux's `setpriv`
// without them: still root, owner of the files, and bound by their permission bits like
// any service user.
const WITHOUT_OVERRIDE = ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--inh-caps=-all'];

/**
 * The launcher (for `runApp`) under which a file with no write bit cannot be written; `[]`
 * when this user is bound by permission bits already, `undefined` when it cannot be had
 * here. Probed on a real read-only file, so what the tests rely on is what they saw.
 */
export function readOnlyLauncher(): readonly string[] | undefined {
  const launcher = process.getuid?.() === 0 ? WITHOUT_OVERRIDE : [];
  const folder = mkdtempSync(join(tmpdir(), 'workplan-read-only-'));
  try {
    const file = join(folder, 'probe');
    writeFileSync(file, '');
    chmodSync(file, 0o444);
    const [command, ...args] = [...launcher, process.execPath, '-e', 'require("node:fs").openSync(process.argv[1], "r+")', file];
    const probe = spawnSync(command, args, { encoding: 'utf8' });
    // `error` when the launcher is missing, and then there is no output to read.
    const refused = probe.error === undefined && probe.status !== 0 && probe.stderr.includes('EACCES');
    return refused ? launcher : undefined;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Whether a test that cannot run here must fail instead of being skipped. */
export const inCi = process.env['CI'] === 'true';

/** Why `what` cannot be tested on this machine. */
export function readOnlyUnavailable(what: string): string {
  return `${what} is NOT tested: no way here to run the app as a user that may not write a read-only file (needs a user other than root, or root and setpriv from util-linux)`;
}

/** Says loudly, once per test file, that `what` will not be tested, and that under CI=true it fails. */
export function warnReadOnlyUnavailable(what: string): void {
  const line = '!'.repeat(78);
  const outcome = inCi ? 'CI=true: this is a FAILURE.' : 'Skipping (outside CI). In CI (CI=true) this fails.';
  console.warn(`\n${line}\n!!  ${readOnlyUnavailable(what)}\n!!  ${outcome}\n${line}\n`);
}
