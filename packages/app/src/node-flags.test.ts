import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NODE_FLAGS } from './node-flags.js';

// The threads of a Node process started with `flags`, counted from Linux's /proc, and the
// cores it may run on.
const COUNT = "console.log(JSON.stringify([require('node:fs').readdirSync('/proc/self/task').length, require('node:os').availableParallelism()]))";

function threadsWith(flags: readonly string[]): { readonly threads: number; readonly cores: number } {
  // NODE_OPTIONS cleared: what it preloads (a debugger's, say) may start threads of its own.
  const env = { ...process.env, NODE_OPTIONS: '' };
  const [threads, cores] = JSON.parse(execFileSync(process.execPath, [...flags, '-e', COUNT], { encoding: 'utf8', env })) as [number, number];
  return { threads, cores };
}

const canCount = existsSync('/proc/self/task');
if (!canCount) {
  const line = '!'.repeat(78);
  console.warn(
    [
      line,
      "!!  node-flags.test.ts: no /proc/self/task here (not Linux), so V8's helper threads are NOT counted.",
      `!!  ${process.env.CI === 'true' ? 'CI=true: this is a FAILURE.' : 'Skipping (outside CI). In CI (CI=true) this fails.'}`,
      line,
    ].join('\n'),
  );
}

describe('NODE_FLAGS', () => {
  it.runIf(!canCount && process.env.CI === 'true')('has /proc/self/task to count threads in (CI=true)', () => {
    expect.fail('/proc/self/task is missing: run CI on Linux');
  });

  it.runIf(canCount)("sizes V8's helper threads to the cores the process may run on: one fewer, at least one, not Node's four", () => {
    const withoutPoolSize = NODE_FLAGS.filter((flag) => !flag.startsWith('--v8-pool-size'));
    const shipped = threadsWith(NODE_FLAGS);
    const oneHelper = threadsWith([...withoutPoolSize, '--v8-pool-size=1']);
    const helpers = Math.max(1, shipped.cores - 1);
    expect(shipped.threads - oneHelper.threads).toBe(helpers - 1);
    // Without the flag, Node starts four, which differs from `helpers` but on five cores.
    expect(threadsWith(withoutPoolSize).threads - oneHelper.threads).toBe(3);
  });
});
