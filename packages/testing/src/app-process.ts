import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';

/** The app binary running as a process of its own, with what it printed. */
export interface AppProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves with the exit code and signal. */
  readonly exited: Promise<[number | null, NodeJS.Signals | null]>;
  /** Resolves with the match once the output holds `pattern`; rejects if the process exits first. */
  printed(pattern: RegExp): Promise<RegExpExecArray>;
  /** Resolves with the URL of the `listening on` banner. */
  listening(): Promise<string>;
  output(): string;
  /** SIGTERM, then resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Where and how the app runs. */
export interface RunOptions {
  readonly cwd?: string;
  /** Its command-line arguments. */
  readonly args?: readonly string[];
  /** A command that runs node in its stead, such as `setpriv` and its options, to run the app with fewer rights. */
  readonly launcher?: readonly string[];
}

/**
 * Runs the built app (`main`, the path of `dist/main.js`) with only `env` and PATH, in `cwd`,
 * so a test never reads the developer's environment or writes into the repository.
 */
export function runApp(main: string, env: Readonly<Record<string, string>>, options: RunOptions = {}): AppProcess {
  // `node main.js args`, after the launcher if there is one.
  const [command = process.execPath, ...commandArgs] = [...(options.launcher ?? []), process.execPath, main, ...(options.args ?? [])];
  return runCommand(command, commandArgs, env, options);
}

/**
 * Runs `command` (found on PATH) as `runApp` runs the app, such as `pnpm start`. `detached`
 * makes it the leader of a process group of its own, as a shell does for a command it runs.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  options: { cwd?: string; detached?: boolean } = {},
): AppProcess {
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    detached: options.detached ?? false,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const printed = async (pattern: RegExp): Promise<RegExpExecArray> => {
    for (;;) {
      const match = pattern.exec(output);
      if (match !== null) return match;
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited before printing ${String(pattern)}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return {
    child,
    exited,
    printed,
    listening: async () => (await printed(/listening on (http:\S+)/u))[1] ?? '',
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      const [code] = await exited;
      return code;
    },
  };
}
