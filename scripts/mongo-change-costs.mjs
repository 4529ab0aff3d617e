// What keeping changes costs on the MongoDB storage, on the server MONGODB_URI names, by
// hand (not a `pnpm bench` scenario): with a change log of each size already kept, the
// median of 9 runs of each write (its change included) and each read of the log, one
// client, one at a time. Needs `pnpm build` first.
//
//   pnpm build && bash scripts/test-db.sh node scripts/mongo-change-costs.mjs 1000 5000
//
// Each size gets a database of its own, dropped after.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { MongoStorage } from '../packages/adapter-mongodb/dist/index.js';
import { assembleRecord, createUuidV7Generator, creationOf, deletionOf, updateOf, workSchedule } from '../packages/core/dist/index.js';

const ids = createUuidV7Generator();
// The driver the package itself resolves (the workspace root has none).
const { MongoClient } = createRequire(new URL('../packages/adapter-mongodb/package.json', import.meta.url))('mongodb');

const uri = process.env.MONGODB_URI;
if (uri === undefined) throw new Error('MONGODB_URI is not set: run this under scripts/bench-db.sh or scripts/test-db.sh');
const sizes = process.argv.slice(2).map(Number);
const RUNS = 9;

async function median(act) {
  const times = [];
  for (let run = 0; run <= RUNS; run += 1) {
    const started = performance.now();
    await act(run);
    if (run > 0) times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)];
}

const recordOf = (text) => {
  const at = new Date();
  return assembleRecord(workSchedule, { id: ids.next(), text, createdAt: at, updatedAt: at });
};

for (const size of sizes) {
  const dbName = `change_costs_${String(size)}_${randomUUID().slice(0, 8)}`;
  const client = await MongoClient.connect(uri);
  // A log of `size` committed creations, as the storage keeps them (their records aside).
  const at = new Date();
  const changes = Array.from({ length: size }, (_, i) => {
    const data = { id: ids.next(), text: `escala ${String(i)}`, createdAt: at, updatedAt: at };
    return { _id: i + 1, kind: 'workSchedule', recordId: data.id, action: 'create', at, by: 'system', data, previous: null, writtenAt: at };
  });
  for (let i = 0; i < size; i += 1000) {
    const batch = changes.slice(i, i + 1000);
    await client.db(dbName).collection('changes').insertMany(batch);
    await client.db(dbName).collection('changes.outcomes').insertMany(batch.map((change) => ({ _id: change._id, committed: true })));
  }
  // A time limit long enough for the slowest server measured: these are figures, not a service.
  const storage = new MongoStorage({ uri, dbName, timeoutMS: 60_000 });
  await storage.ensureIndexes();
  const repository = storage.repositories.workSchedules;
  const figures = [];
  const created = [];
  figures.push(['create', await median(async (run) => {
    const record = recordOf(`nova ${String(run)}`);
    await repository.insert(creationOf(workSchedule, record), record.value);
    created.push(record);
  })]);
  const updated = [];
  figures.push(['update', await median(async (run) => {
    const record = created[run];
    const data = { ...record, value: `${record.value} editada`, updatedAt: new Date(record.updatedAt.getTime() + 1) };
    await repository.update(updateOf(workSchedule, record, data), data.value);
    updated.push(data);
  })]);
  figures.push(['delete', await median((run) => repository.delete(deletionOf(workSchedule, updated[run], new Date())))]);
  const head = size + 3 * (RUNS + 1);
  figures.push(['read of the last 10', await median(() => storage.changes.read(head - 10, 10))]);
  figures.push(['read of 1000 from the start', await median(() => storage.changes.read(0, 1000))]);
  figures.push(['read with nothing new', await median(() => storage.changes.read(head, 10))]);
  figures.push(["a record's history", await median(() => storage.changes.history('workSchedule', created[0].id))]);
  // What a waiting reader's poll asks while nothing new is committed (mongo-change-log.ts).
  const outcomes = client.db(dbName).collection('changes.outcomes');
  figures.push(['poll with nothing new', await median(() => outcomes.findOne({ _id: { $gt: head }, committed: true }, { projection: { _id: 1 } }))]);
  console.log(`\n${String(size)} changes kept, median of ${String(RUNS)} (ms):`);
  for (const [name, ms] of figures) console.log(`  ${name.padEnd(30)} ${ms.toFixed(1)}`);
  await storage.close();
  await client.db(dbName).dropDatabase();
  await client.close();
}
