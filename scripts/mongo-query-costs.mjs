// What the MongoDB repository's queries cost on the server MONGODB_URI names, by hand (not
// a `pnpm bench` scenario): the folded-text backfill of records stored without it, then the
// median of 9 runs of each read, one client, one at a time. Needs `pnpm build` first.
//
//   pnpm build && bash scripts/bench-db.sh node scripts/mongo-query-costs.mjs 1000 10000
//
// Each size gets a database of its own, dropped after.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { MongoStorage } from '../packages/adapter-mongodb/dist/index.js';

// The driver the package itself resolves (the workspace root has none).
const { MongoClient, UUID } = createRequire(new URL('../packages/adapter-mongodb/package.json', import.meta.url))('mongodb');

const uri = process.env.MONGODB_URI;
if (uri === undefined) throw new Error('MONGODB_URI is not set: run this under scripts/bench-db.sh or scripts/test-db.sh');
const sizes = process.argv.slice(2).map(Number);
const RUNS = 9;
const words = ['Manutenção', 'Área', 'alvaro', 'Élida', 'Recepção', 'zeladoria', 'Portaria', 'Financeiro'];

async function median(read) {
  await read();
  const times = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    await read();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)];
}

for (const size of sizes) {
  const dbName = `query_costs_${String(size)}_${randomUUID().slice(0, 8)}`;
  const client = await MongoClient.connect(uri);
  // Records as a version without the folded text stored them, in createdAt order.
  const start = Date.UTC(2026, 0, 1);
  const documents = Array.from({ length: size }, (_, i) => {
    const value = `${words[i % words.length]} ${String(i)}`;
    const at = new Date(start + i * 1000);
    return { _id: new UUID(), value, key: value.toLowerCase(), createdAt: at, updatedAt: at };
  });
  for (let i = 0; i < size; i += 1000) await client.db(dbName).collection('workSchedules').insertMany(documents.slice(i, i + 1000));
  // A time limit long enough for the slowest server measured: these are figures, not a service.
  const storage = new MongoStorage({ uri, dbName, timeoutMS: 60_000 });
  const repository = storage.repositories.workSchedules;
  const figures = [];
  const started = performance.now();
  await storage.ensureIndexes();
  figures.push(['indexes and backfill of every record', performance.now() - started]);

  const page = { skip: 0, limit: 100, count: false };
  figures.push(['plain list, first 100', await median(() => repository.list({ skip: 0, limit: 100 }))]);
  for (const field of ['createdAt', 'updatedAt', 'text']) {
    for (const descending of [false, true]) {
      const order = { field, descending };
      const name = `${descending ? '-' : ''}${field}`;
      figures.push([`query ${name}, first 100`, await median(() => repository.query({ ...page, order }))]);
    }
  }
  const deep = documents.at(-101);
  const after = { value: deep.createdAt.getTime(), id: deep._id.toHexString(true) };
  figures.push([`query createdAt, 100 after depth ${String(size - 101)}`, await median(() => repository.query({ ...page, order: { field: 'createdAt', descending: false }, after }))]);
  figures.push(['plain list, skip to the last 100', await median(() => repository.list({ skip: size - 100, limit: 100 }))]);
  figures.push(["search 'manutencao 1', first 100", await median(() => repository.query({ ...page, search: 'manutencao 1', order: { field: 'text', descending: false } }))]);
  figures.push(['the same search with its count', await median(() => repository.query({ ...page, search: 'manutencao 1', order: { field: 'text', descending: false }, count: true }))]);
  figures.push(['count()', await median(() => repository.count())]);

  console.log(`\n${String(size)} records, ${uri.replace(/\/\/[^@]*@/u, '//')}, ms (median of ${String(RUNS)}):`);
  for (const [what, ms] of figures) console.log(`  ${what.padEnd(44)} ${ms.toFixed(1)}`);
  await storage.close();
  await client.db(dbName).dropDatabase();
  await client.close();
}
