import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

/** A server the bench started, on core 0 when pinning is on. */
export interface ServerProcess {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  /** Resident set size now, in MB; undefined where /proc is missing. */
  rssMb(): number | undefined;
  /** CPU time the process has used so far, every thread of it, in ms; undefined where /proc is missing. */
  cpuMs(): number | undefined;
  /** Stops it with SIGTERM (SIGKILL after 5 s) and resolves once it has exited. */
  stop(): Promise<void>;
}

export interface ServerSpec {
  readonly name: string;
  /** A script file Node runs. */
  readonly script: string;
  /** The whole environment it gets, besides PORT and HOST. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly nodeFlags?: readonly string[];
  /** The Node binary that runs it; unset, the one running the bench. */
  readonly node?: string | undefined;
  /** How to know it serves: a line on stdout, or an HTTP path answering 200. */
  readonly ready: { readonly stdoutLine: string } | { readonly path: string };
}

export const APP_MAIN = fileURLToPath(new URL('../../app/dist/main.js', import.meta.url));
export const baselineScript = (name: string): string => fileURLToPath(new URL(`./baselines/${name}.js`, import.meta.url));
/** A peer (`peers/*.mjs`): plain JavaScript, outside the TypeScript build. */
export const peerScript = (name: string): string => fileURLToPath(new URL(`../peers/${name}.mjs`, import.meta.url));

/**
 * Pins this process (every thread of it) to core 1 and says whether servers go on core 0.
 * Needs Linux, `taskset` and two cores; otherwise nothing is pinned.
 */
export function pinLoadGenerator(wanted: boolean): boolean {
  if (!wanted || process.platform !== 'linux' || availableParallelism() < 2) return false;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn('taskset failed or is missing: nothing is pinned');
    return false;
  }
}

/** Starts a server on a free loopback port and resolves once it is ready. */
export async function startServer(spec: ServerSpec, pinned: boolean): Promise<ServerProcess> {
  const port = await freePort();
  const nodeArgs = [...(spec.nodeFlags ?? []), spec.script];
  const node = spec.node ?? process.execPath;
  const [command, args] = pinned ? ['taskset', ['-c', '0', node, ...nodeArgs]] : [node, nodeArgs];
  const watchStdout = 'stdoutLine' in spec.ready;
  // The app's stdout (its request log when logs are on) goes to /dev/null: the cost measured
  // is making the log lines, not a disk's or a collector's.
  const child = spawn(command, args, {
    env: { ...spec.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', watchStdout ? 'pipe' : 'ignore', 'pipe'],
  });
  let stderrTail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await Promise.race([
      'stdoutLine' in spec.ready ? stdoutLine(child, spec.ready.stdoutLine) : httpOk(`${url}${spec.ready.path}`, child),
      exited(child).then((code) => {
        throw new Error(`exited with ${String(code)} before it was ready`);
      }),
      timeout(30_000),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`${spec.name} did not start: ${why}\n${stderrTail}`, { cause: error });
  }
  const pid = child.pid ?? 0;
  return { name: spec.name, url, pid, rssMb: () => rssOf(pid), cpuMs: () => cpuMsOf(pid), stop: () => stopChild(child) };
}

/** The resident memory of process `pid` in MB, from /proc; undefined where there is none. */
export function rssOf(pid: number): number | undefined {
  const status = `/proc/${pid}/status`;
  if (!existsSync(status)) return undefined;
  const match = /^VmRSS:\s+(\d+) kB/mu.exec(readFileSync(status, 'utf8'));
  return match?.[1] === undefined ? undefined : Number(match[1]) / 1024;
}

/** The CPU time of process `pid` in ms, from /proc; undefined where there is none. */
function cpuMsOf(pid: number): number | undefined {
  const stat = `/proc/${pid}/stat`;
  return existsSync(stat) ? cpuMsOfStat(readFileSync(stat, 'utf8')) : undefined;
}

/** /proc reports CPU time in clock ticks of USER_HZ, 100 a second on Linux whatever the kernel's own rate. */
const TICKS_PER_SECOND = 100;

/**
 * User and system time, in ms, of a `/proc/PID/stat` line: fields 14 and 15, counted after
 * the command name in parentheses, which may itself hold spaces and parentheses.
 */
export function cpuMsOfStat(line: string): number | undefined {
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  // Fields 3 onwards follow the name: utime is the 14th field, stime the 15th.
  const [utime, stime] = [Number(fields[11]), Number(fields[12])];
  return Number.isFinite(utime) && Number.isFinite(stime) ? ((utime + stime) * 1000) / TICKS_PER_SECOND : undefined;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = exited(child);
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await done;
  clearTimeout(killer);
}

async function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

/** Resolves once the child writes a line starting with `prefix` on its stdout (a pipe). */
export async function stdoutLine(child: ChildProcess, prefix: string): Promise<void> {
  const stdout = child.stdout;
  if (stdout === null) throw new Error('no stdout');
  let seen = '';
  // A listener, not for-await: leaving a for-await loop would destroy the pipe.
  await new Promise<void>((resolve) => {
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString('utf8');
      if (!seen.split('\n').some((line) => line.startsWith(prefix))) return;
      stdout.off('data', onData);
      stdout.resume(); // keep draining, so a later write never blocks the server
      resolve();
    };
    stdout.on('data', onData);
  });
}

async function httpOk(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (child.exitCode === null && Date.now() < deadline) {
    try {
      const response = await fetch(url);
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // not listening yet: try again
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no 200 from ${url}`);
}

async function timeout(ms: number): Promise<never> {
  await new Promise((resolve) => setTimeout(resolve, ms).unref());
  throw new Error(`not ready after ${ms} ms`);
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
