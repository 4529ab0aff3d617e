import { MongoClient } from 'mongodb';
import { BENCH_KEY, servesMetrics, startApp, withDatabase } from './app.js';
import { compare, seed, type Comparison, type Contender, type Plan } from './compare.js';
import { baselineScript, startServer, type ServerProcess } from './processes.js';
import { OPERATIONS } from './workloads.js';

/** What one storage's comparison found, and whether the app served metrics while it ran. */
export interface ScenarioResult {
  readonly comparison: Comparison;
  readonly appMetrics: boolean;
}

export function planOf(options: { rounds: number; roundSeconds: number; warmupSeconds: number; connections: number }): Plan {
  return { ...options, headers: { key: BENCH_KEY } };
}

/** The app on the memory store against (a) bare node:http and (b) bare Express with a Map. */
export async function memoryScenario(plan: Plan, seedRecords: number, pinned: boolean): Promise<ScenarioResult> {
  const servers: ServerProcess[] = [];
  try {
    const a = await startBaseline('node-http', 'a', pinned, servers);
    const b = await startBaseline('express-map', 'b', pinned, servers);
    const app = await startApp({ storage: 'memory' }, pinned);
    servers.push(app);
    const appIds = await seed(app, seedRecords, plan);
    const contenders: Contender[] = [
      { key: 'a', server: a, operations: OPERATIONS, ids: appIds },
      { key: 'b', server: b, operations: OPERATIONS, ids: await seed(b, seedRecords, plan) },
      { key: 'app', server: app, operations: OPERATIONS, ids: appIds },
    ];
    return { comparison: await compare(contenders, plan, 'memory'), appMetrics: await servesMetrics(app) };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/** The app on MongoDB against (c) a bare Express route doing the same findOne. */
export async function mongoScenario(plan: Plan, seedRecords: number, mongodbUri: string, pinned: boolean): Promise<ScenarioResult> {
  const uri = withDatabase(mongodbUri, `workplan_bench_${Date.now()}`);
  const servers: ServerProcess[] = [];
  try {
    const app = await startApp({ storage: 'mongodb', mongodbUri: uri }, pinned);
    servers.push(app);
    const ids = await seed(app, seedRecords, plan);
    const c = await startServer(
      { name: '(c) express + mongodb', script: baselineScript('express-mongo'), env: { ...process.env, MONGODB_URI: uri }, ready: { stdoutLine: 'listening' } },
      pinned,
    );
    servers.push(c);
    const contenders: Contender[] = [
      { key: 'c', server: c, operations: ['find'], ids },
      { key: 'app', server: app, operations: OPERATIONS, ids },
    ];
    return { comparison: await compare(contenders, plan, 'mongodb'), appMetrics: await servesMetrics(app) };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await dropDatabase(uri);
  }
}

async function startBaseline(script: string, key: string, pinned: boolean, servers: ServerProcess[]): Promise<ServerProcess> {
  const server = await startServer(
    { name: `(${key}) ${script}`, script: baselineScript(script), env: { ...process.env }, ready: { stdoutLine: 'listening' } },
    pinned,
  );
  servers.push(server);
  return server;
}

/** Drops the bench's own database, so runs leave nothing behind. */
export async function dropDatabase(uri: string): Promise<void> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.db().dropDatabase();
  } catch (error) {
    console.warn(`could not drop the bench database: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await client.close();
  }
}
