import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { liveHeapMb } from './live-heap.js';
import { freePort, stdoutLine } from './processes.js';

// Drops some 50 MB of garbage at start; on each line read, keeps 20,000 arrays of 125 doubles (1 KB each).
const SCRIPT = `
let junk = Array.from({ length: 50000 }, (_, i) => new Array(125).fill(i + 0.5));
junk = null;
globalThis.kept = [];
process.stdin.on('data', () => {
  for (let i = 0; i < 20000; i += 1) globalThis.kept.push(new Array(125).fill(i + 0.5));
  process.stdout.write('grown\\n');
});
process.stdout.write('ready\\n');
`;

let child: ChildProcess | undefined;

afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});

describe('liveHeapMb', () => {
  it('counts what the process holds after a full collection, not the garbage it made', async () => {
    const port = await freePort();
    child = spawn(process.execPath, [`--inspect=127.0.0.1:${port}`, '-e', SCRIPT], { stdio: ['pipe', 'pipe', 'ignore'] });
    await stdoutLine(child, 'ready');
    const before = await liveHeapMb(port);
    expect(before).toBeLessThan(20); // the 50 MB dropped at start is not counted
    child.stdin?.write('grow\n');
    await stdoutLine(child, 'grown');
    const after = await liveHeapMb(port);
    expect(after - before).toBeGreaterThan(15); // 20,000 arrays of 1 KB kept
    expect(after - before).toBeLessThan(40);
    child.kill('SIGKILL');
    await once(child, 'exit');
  }, 30_000);
});
