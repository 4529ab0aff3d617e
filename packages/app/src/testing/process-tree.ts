import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

/** Each running process's parent, from `ps`; a zombie (exited, not yet reaped) is not running. */
function runningProcesses(): Map<number, number> {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,stat='], { encoding: 'utf8' }).trim().split('\n');
  const parents = new Map<number, number>();
  for (const row of rows) {
    const [pid = '', ppid = '', stat = ''] = row.trim().split(/\s+/u);
    if (!stat.startsWith('Z')) parents.set(Number(pid), Number(ppid));
  }
  return parents;
}

/** The running processes started by `pid`, by its children, and so on down. */
export function descendantsOf(pid: number): number[] {
  const parents = [...runningProcesses()];
  const found: number[] = [];
  for (let generation = [pid]; generation.length > 0; ) {
    generation = parents.filter(([, parent]) => generation.includes(parent)).map(([child]) => child);
    found.push(...generation);
  }
  return found;
}

/** Those of `pids` still running after up to `ms` of waiting for them all to end. */
export async function survivorsOf(pids: readonly number[], ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const running = runningProcesses();
    const survivors = pids.filter((pid) => running.has(pid));
    if (survivors.length === 0 || Date.now() > deadline) return survivors;
    await sleep(100);
  }
}
