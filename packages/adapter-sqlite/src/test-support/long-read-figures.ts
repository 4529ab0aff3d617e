// Figures of issue 28 for docs/benchmarks/README.md, in one process: what pages, searches
// and counts cost at 100,000 records, and how long a find waits while 16 loops send long
// reads, with them in the reader thread and on the event loop. Not a test: run it by hand,
// after `pnpm build`, with `node packages/adapter-sqlite/src/test-support/long-read-figures.ts`.
import { CREATION_ORDER, foldText, workSchedule, type RecordOrder, type RecordQuery, type RecordRepository } from '@workplan/core';
import { SqliteRecordRepository, SqliteStorage } from '@workplan/adapter-sqlite';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

const RECORDS = 100_000;
const WORDS = ['Manutenção', 'Elétrica', 'Financeiro', 'Operações', 'Turno', 'noturno', 'diurno', 'Escala', 'Álvaro', 'Logística'];

type Schedules = RecordRepository<'value'>;

/** A file of `RECORDS` schedules, stored at once through a connection of its own. */
function seededFile(folder: string): string {
  const path = join(folder, 'figures.db');
  void SqliteStorage.open({ path }).close();
  const db = new DatabaseSync(path);
  const insert = db.prepare('INSERT INTO work_schedules (id, "text", "key", created_at, updated_at, folded) VALUES (?, ?, ?, ?, ?, ?)');
  db.exec('BEGIN');
  for (let n = 0; n < RECORDS; n += 1) {
    const text = `${WORDS[n % WORDS.length] ?? ''} ${WORDS[(n * 7) % WORDS.length] ?? ''} ${String(n)}`;
    insert.run(randomUUID(), text, text.toLowerCase(), n, (n * 7919) % RECORDS, foldText(text));
  }
  db.exec('COMMIT');
  db.close();
  return path;
}

const percentile = (times: readonly number[], share: number): number => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN;
};
const ms = (value: number): string => `${value.toFixed(3)} ms`;

/** The median time of `read`, after a few unmeasured runs. */
async function median(read: (n: number) => Promise<unknown>, runs = 100): Promise<number> {
  for (let n = 0; n < 5; n += 1) await read(n);
  const times: number[] = [];
  for (let n = 0; n < runs; n += 1) {
    const start = performance.now();
    await read(n);
    times.push(performance.now() - start);
  }
  return percentile(times, 0.5);
}

const query = (overrides: Partial<RecordQuery>): RecordQuery => ({ order: CREATION_ORDER, skip: 0, limit: 101, count: false, ...overrides });

async function pages(schedules: Schedules): Promise<void> {
  for (const field of ['createdAt', 'updatedAt', 'text'] as const) {
    for (const descending of [false, true]) {
      const order: RecordOrder = { field, descending };
      const first = await median(() => schedules.query(query({ order })));
      const [deepest] = (await schedules.query(query({ order, skip: RECORDS - 101, limit: 1 }))).records;
      if (deepest === undefined) throw new Error('no record at depth 99,900');
      const value = field === 'text' ? foldText(deepest.value) : deepest[field].getTime();
      const deep = await median(() => schedules.query(query({ order, after: { value, id: deepest.id } })));
      const counted = await median(() => schedules.query(query({ order, count: true })));
      console.log(`${descending ? '-' : ''}${field}: first page ${ms(first)}, at depth 99,900 ${ms(deep)} (${(deep / first).toFixed(2)}), counted ${ms(counted)} (${(counted / first).toFixed(2)})`);
    }
  }
  console.log(`plain list at skip 100,000: ${ms(await median((n) => schedules.list({ skip: RECORDS - (n % 50), limit: 100 }), 40))}`);
  for (const search of ['99999', 'escala']) {
    const found = await median(() => schedules.query(query({ search })), 40);
    const counted = await median(() => schedules.query(query({ search, count: true })), 40);
    console.log(`search "${search}": ${ms(found)}, counted ${ms(counted)}`);
  }
}

/** A find loop's and the event loop's delays for 5 s while 16 loops send `longRead` as fast as they can. */
async function besideLongReads(name: string, schedules: Schedules, ids: readonly string[], longRead: (n: number) => Promise<unknown>): Promise<void> {
  let running = true;
  // Each loop yields to the event loop between reads, as requests arriving on sockets do.
  const loops = Array.from({ length: 16 }, async (_, loop) => {
    for (let n = loop * 1000; running; n += 1) {
      await longRead(n);
      await new Promise((resolve) => setImmediate(resolve));
    }
  });
  const finds: number[] = [];
  const lags: number[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    lags.push(now - last - 1);
    last = now;
  }, 1);
  for (const until = performance.now() + 5000; performance.now() < until; ) {
    const start = performance.now();
    await schedules.findById(ids[finds.length % ids.length] ?? '');
    await new Promise((resolve) => setTimeout(resolve, 2));
    finds.push(performance.now() - start - 2);
  }
  clearInterval(timer);
  running = false;
  await Promise.all(loops);
  console.log(`${name}: ${String(finds.length)} finds, a find's wait p99 ${ms(percentile(finds, 0.99))}, event loop delay p99 ${ms(percentile(lags, 0.99))}`);
}

const folder = mkdtempSync(join(tmpdir(), 'workplan-figures-'));
try {
  const path = seededFile(folder);
  const storage = SqliteStorage.open({ path });
  const schedules = storage.repositories.workSchedules;
  const ids = (await schedules.list({ skip: 0, limit: 1000 })).map((record) => record.id);
  await pages(schedules);
  // The same file through a repository whose long reads run on the event loop.
  const onLoop = new DatabaseSync(path);
  const onTheLoop = new SqliteRecordRepository(onLoop, workSchedule);
  for (const [where, repository] of [['in the reader thread', schedules], ['on the event loop', onTheLoop]] as const) {
    await besideLongReads(`16 searches, ${where}`, repository, ids, () => repository.query(query({ search: '99999', count: true })));
    await besideLongReads(`16 pages at skip ~100,000, ${where}`, repository, ids, (n) => repository.list({ skip: RECORDS - (n % 3000), limit: 100 }));
  }
  onLoop.close();
  await storage.close();
} finally {
  rmSync(folder, { recursive: true, force: true });
}
