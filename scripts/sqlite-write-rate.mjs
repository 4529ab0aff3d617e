// How many writes a second SQLite's write thread commits under concurrent load, and how
// many writes each commit holds (docs/benchmarks/README.md): creates through SqliteStorage,
// as the service makes them, into a new file, with a fixed number in flight.
//
//   pnpm exec tsc -b packages/adapter-sqlite && node scripts/sqlite-write-rate.mjs [writes] [in flight] [adapter]
//
// `adapter` is the built package's index.js to measure (by default this checkout's), so
// another build, kept inside the workspace so that it finds @workplan/core, can be
// measured against it. Commits are counted as the write thread's answers: one message per
// commit, an array of the answers of the writes it held (one answer per message when each
// write was a commit of its own).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const total = Number(process.argv[2] ?? 20_000);
const inFlight = Number(process.argv[3] ?? 50);
const adapter = process.argv[4] === undefined ? new URL('../packages/adapter-sqlite/dist/index.js', import.meta.url) : pathToFileURL(resolve(process.argv[4]));
const { SqliteStorage } = await import(adapter.href);

let commits = 0;
let answered = 0;
const emit = Worker.prototype.emit;
Worker.prototype.emit = function countingAnswers(event, message, ...rest) {
  if (event === 'message') {
    const answers = Array.isArray(message) ? message : [message];
    if (answers.every((answer) => typeof answer?.id === 'number' && ('results' in answer || 'failure' in answer))) {
      commits += 1;
      answered += answers.length;
    }
  }
  return emit.call(this, event, message, ...rest);
};

const folder = mkdtempSync(join(tmpdir(), 'workplan-write-rate-'));
const storage = SqliteStorage.open({ path: join(folder, 'workplan.db') });
const repository = storage.repositories.workSchedules;
const kind = 'workSchedule';

async function create(n) {
  const at = new Date();
  const value = `Escala ${['12x36', '6x1', '5x2', '4x3'][n % 4]} ${String(n).padStart(6, '0')}`;
  const data = { id: randomUUID(), value, createdAt: at, updatedAt: at };
  await repository.insert({ kind, recordId: data.id, action: 'create', at, by: 'RH', data, previous: null }, value.toLowerCase());
}

let next = 0;
async function sender() {
  while (next < total) await create((next += 1));
}

const started = performance.now();
await Promise.all(Array.from({ length: inFlight }, sender));
const seconds = (performance.now() - started) / 1000;
await storage.close();
rmSync(folder, { recursive: true, force: true });

console.log(
  JSON.stringify({
    writes: total,
    inFlight,
    writesPerSecond: Math.round(total / seconds),
    commits,
    writesPerCommit: Number((answered / commits).toFixed(2)),
  }),
);
