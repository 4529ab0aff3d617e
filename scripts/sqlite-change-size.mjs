// What the change log costs on disk in a SQLite file (docs/operations.md): writes changes
// through SqliteStorage, as the service does, into a new file, then weighs the file with
// its changes and without them (both vacuumed, so free pages count in neither).
//
//   pnpm exec tsc -b packages/adapter-sqlite && node scripts/sqlite-change-size.mjs [changes]
//
// The writes are those of a catalog in use: of every 10 changes, 4 creates, 5 updates and
// 1 delete, texts like `Escala 12x36 noturna 01234` (about 25 characters), written by `RH`.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SqliteStorage } from '../packages/adapter-sqlite/dist/index.js';

const total = Number(process.argv[2] ?? 100_000);
const folder = mkdtempSync(join(tmpdir(), 'workplan-change-size-'));
const path = join(folder, 'workplan.db');
const kind = 'workSchedule';
const by = 'RH';

const storage = SqliteStorage.open({ path });
const repository = storage.repositories.workSchedules;
const live = [];
let written = 0;
const textOf = (n) => `Escala ${['12x36', '6x1', '5x2', '4x3'][n % 4]} ${n % 2 === 0 ? 'noturna' : 'diurna'} ${String(n).padStart(5, '0')}`;

async function write(n) {
  const step = n % 10;
  if (step < 4 || live.length === 0) {
    const at = new Date();
    const data = { id: randomUUID(), value: textOf(n), createdAt: at, updatedAt: at };
    await repository.insert({ kind, recordId: data.id, action: 'create', at, by, data, previous: null }, data.value.toLowerCase());
    live.push(data);
  } else if (step < 9) {
    const index = n % live.length;
    const previous = live[index];
    const at = new Date(previous.updatedAt.getTime() + 1);
    const data = { ...previous, value: textOf(n), updatedAt: at };
    await repository.update({ kind, recordId: data.id, action: 'update', at, by, data, previous }, data.value.toLowerCase());
    live[index] = data;
  } else {
    const previous = live.pop();
    const at = new Date(previous.updatedAt.getTime() + 1);
    await repository.delete({ kind, recordId: previous.id, action: 'delete', at, by, data: null, previous });
  }
  written += 1;
}

for (let n = 0; n < total; n += 1) await write(n);
await storage.close();

const sizeOf = () => statSync(path).size;
const asWritten = sizeOf();
const db = new DatabaseSync(path);
// Out of WAL mode, so each VACUUM rewrites the file itself rather than the log beside it.
db.exec('PRAGMA journal_mode = DELETE');
db.exec('VACUUM');
const withChanges = sizeOf();
const records = db.prepare('SELECT count(*) AS n FROM work_schedules').get().n;
// Each action's changes removed in turn: what the file loses is what they took.
const byAction = [];
for (const action of ['update', 'create', 'delete']) {
  const before = sizeOf();
  const { changes } = db.prepare('DELETE FROM changes WHERE action = ?').run(action);
  db.exec('VACUUM');
  byAction.push(`${action} ${Math.round((before - sizeOf()) / Number(changes))}`);
}
const withoutChanges = sizeOf();
db.close();
rmSync(folder, { recursive: true, force: true });

const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
console.log(`${written} changes, ${records} records left`);
console.log(`file as written: ${mib(asWritten)}; vacuumed: ${mib(withChanges)} with the changes, ${mib(withoutChanges)} without`);
console.log(`${Math.round((withChanges - withoutChanges) / written)} bytes a change (${byAction.join(', ')})`);
