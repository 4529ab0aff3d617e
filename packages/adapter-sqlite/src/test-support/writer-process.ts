import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

// The built package, as a program of a library user would load it (`pnpm test` builds first).
const built = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/** A program writing through its own SqliteStorage, in a process of its own. */
export interface WriterProcess {
  readonly child: ChildProcess;
  /** Resolves once its first write has committed. */
  readonly writing: Promise<void>;
  /** Lets a writer started `gated` go on past its first write. */
  go(): void;
  /** Resolves once it has ended, however it did, with what it printed. */
  readonly ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
}

/**
 * Starts a process that creates, updates and deletes work schedules in the file at `path`,
 * four writes at a time, `writes` of them (Infinity: until it is killed), then closes the
 * storage, saying how many of its writes changed a record. It takes up the records it finds there, and every record it writes, whatever
 * other processes do to them: a write that finds its record changed (a conditional update
 * or delete that changes nothing) reads it again. Each of its texts begins with `tag`.
 * `gated`, it waits after its first write until `go()`, so that several start together.
 */
export function startWriterProcess(path: string, tag: string, { writes = Infinity, gated = false } = {}): WriterProcess {
  const program = `
    const { SqliteStorage } = await import(${JSON.stringify(built)});
    const storage = SqliteStorage.open({ path: ${JSON.stringify(path)}, busyTimeoutMs: 20000 });
    const repository = storage.repositories.workSchedules;
    const tag = ${JSON.stringify(tag)};
    const kind = 'workSchedule';
    const live = new Map((await repository.list({ skip: 0, limit: 10000 })).map((record) => [record.id, record]));
    const taken = new Set();
    let started = 0;
    let kept = 0;
    const refresh = async (id) => {
      const now = await repository.findById(id);
      if (now === undefined) live.delete(id);
      else live.set(id, now);
    };
    const write = async (n) => {
      const free = [...live.keys()].filter((id) => !taken.has(id));
      const roll = Math.random();
      const value = tag + ' ' + n;
      if (free.length < 10 || roll < 0.4) {
        const at = new Date();
        const data = { id: crypto.randomUUID(), value, createdAt: at, updatedAt: at };
        await repository.insert({ kind, recordId: data.id, action: 'create', at, by: tag, data, previous: null }, value);
        live.set(data.id, data);
        kept += 1;
        return;
      }
      const id = free[Math.floor(Math.random() * free.length)];
      const previous = live.get(id);
      const at = new Date(previous.updatedAt.getTime() + 1);
      taken.add(id);
      try {
        if (roll < 0.75) {
          const data = { ...previous, value, updatedAt: at };
          const change = await repository.update({ kind, recordId: id, action: 'update', at, by: tag, data, previous }, value);
          if (change === undefined) await refresh(id);
          else live.set(id, data);
          if (change !== undefined) kept += 1;
        } else {
          const change = await repository.delete({ kind, recordId: id, action: 'delete', at, by: tag, data: null, previous });
          if (change === undefined) await refresh(id);
          else live.delete(id);
          if (change !== undefined) kept += 1;
        }
      } finally {
        taken.delete(id);
      }
    };
    await write(0);
    console.log('writing');
    if (${String(gated)}) await new Promise((resolve) => process.stdin.once('data', resolve));
    const lane = async () => {
      while (started < ${String(writes)} - 1) {
        started += 1;
        await write(started);
      }
    };
    await Promise.all([lane(), lane(), lane(), lane()]);
    await storage.close();
    console.log('done: ' + kept + ' changes');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', program]);
  let output = '';
  let wrote: () => void = () => undefined;
  const writing = new Promise<void>((resolve) => (wrote = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (output.includes('writing')) wrote();
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ended = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null, output }));
  return { child, writing, ended, go: () => child.stdin.end('go\n') };
}
