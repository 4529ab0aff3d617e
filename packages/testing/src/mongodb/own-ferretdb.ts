import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const HOW_TO_RUN = 'run it with: bash scripts/test-db.sh pnpm test (it builds FerretDB and exports FERRETDB_BIN)';

/**
 * The FerretDB binary `scripts/test-db.sh` exports, for tests that start a server of their
 * own to stop, freeze or kill; `undefined` (said loudly, and an error under `CI=true`) without it.
 */
export function ferretdbBinary(testName: string): string | undefined {
  const binary = process.env['FERRETDB_BIN'];
  if (binary !== undefined) return binary;
  const message = `${testName} cannot run: FERRETDB_BIN is not set; ${HOW_TO_RUN}`;
  if (process.env['CI'] === 'true') throw new Error(message);
  console.warn(`\n${'!'.repeat(80)}\n${message}\n${'!'.repeat(80)}\n`);
  return undefined;
}

/**
 * A FerretDB of one test's own, on a fixed port and data folder, so it can be killed and
 * come back with its data, or be frozen (SIGSTOP) with its connections open, as a stalled
 * database is: the kernel still accepts connections, and nothing answers.
 */
export class OwnFerretDb {
  #process: ChildProcess | undefined;

  private constructor(readonly binary: string, readonly port: number, readonly dir: string) {}

  /** A server not yet started, on a free loopback port and a new data folder. */
  static async prepare(binary: string): Promise<OwnFerretDb> {
    return new OwnFerretDb(binary, await freePort(), await mkdtemp(join(tmpdir(), 'workplan-ferretdb-')));
  }

  /** The connection string of database `dbName` on it. */
  uri(dbName: string): string {
    return `mongodb://127.0.0.1:${this.port}/${dbName}`;
  }

  async start(): Promise<void> {
    this.#process = spawn(this.binary, [
      '--handler=sqlite', `--sqlite-url=file:${this.dir}/`, `--state-dir=${this.dir}`,
      `--listen-addr=127.0.0.1:${this.port}`, '--telemetry=disable', '--debug-addr=-', '--log-level=error',
    ], { stdio: 'ignore' });
    await eventually(() => portAnswers(this.port));
  }

  /** Kills it without warning: an outage, not a shutdown, so nothing is flushed politely. */
  async kill(): Promise<void> {
    const running = this.#process;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    running.kill('SIGCONT'); // A frozen process takes SIGKILL too, but then never reports its exit.
    running.kill('SIGKILL');
    await once(running, 'exit');
  }

  /** Freezes it: open connections stay open, and nothing is answered until `thaw`. */
  freeze(): void {
    this.#process?.kill('SIGSTOP');
  }

  thaw(): void {
    this.#process?.kill('SIGCONT');
  }

  /**
   * The processor time it has used so far, in milliseconds, from `/proc` (Linux): what work
   * the database is still doing shows here, as no client's answer can show it.
   */
  async cpuMs(): Promise<number> {
    const stat = await readFile(`/proc/${this.#process?.pid ?? 0}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: state is
    // the first, user and system time (in ticks of 10 ms) the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  }
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  return port;
}

/** Whether something listens on `port`: binding it fails then. */
async function portAnswers(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => { resolve(true); });
    probe.listen(port, '127.0.0.1', () => { probe.close(() => { resolve(false); }); });
  });
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
