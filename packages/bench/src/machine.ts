import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem, type } from 'node:os';

/** The machine a run came from, for the report: numbers mean little without it. */
export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGb: number;
  readonly os: string;
  readonly node: string;
  readonly commit: string | undefined;
  /** 1-minute load average when the run started: well above zero, something else was running. */
  readonly loadAtStart: number;
}

export function describeMachine(): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length, // not availableParallelism(): that counts only the cores this process is pinned to
    memoryGb: Math.round(totalmem() / 2 ** 30),
    os: `${type()} ${release()}`,
    node: process.version,
    commit: gitCommit(),
    loadAtStart: loadavg()[0] ?? 0,
  };
}

function gitCommit(): string | undefined {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return dirty.trim() === '' ? head : `${head} (with uncommitted changes)`;
  } catch {
    return undefined;
  }
}
