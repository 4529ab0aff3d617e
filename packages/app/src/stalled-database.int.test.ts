import { fileURLToPath } from 'node:url';
import { type RecordDocument } from '@workplan/adapter-mongodb';
import { foldText } from '@workplan/core';
import { ferretdbBinary, OwnFerretDb } from '@workplan/testing/mongodb';
import { runApp, send, untilReady, type AppProcess, type HttpAnswer, type HttpCall } from '@workplan/testing';
import { MongoClient, UUID } from 'mongodb';
import { describe, expect, it } from 'vitest';

// The app as a process of its own over a FerretDB of the test's own, frozen with SIGSTOP
// while the app's connections to it are open and warm (the database stalls rather than
// goes away, so nothing refuses a connection and only the app's own bounds answer), or
// loaded with lists slower than the request deadline.
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const ferretdb = ferretdbBinary('the stalled-database test');
const key = 'stalled-test-key-0123456789';
const json = { key, 'content-type': 'application/json' };

const TIMEOUT_MS = 800;
// A request deadline past the test's own timeout: with the database frozen, a 503 answered
// at all was answered by the storage's bound (MONGODB_TIMEOUT_MS), not by the deadline.
const REQUEST_DEADLINE_MS = 600_000;

interface Timed {
  readonly name: string;
  readonly status: number;
  readonly code: unknown;
  readonly retryAfter: string | undefined;
  readonly ms: number;
}

async function timed(url: string, name: string, call: HttpCall): Promise<Timed> {
  const started = performance.now();
  const answer: HttpAnswer = await send(url, call);
  const ms = Math.round(performance.now() - started);
  const code = (answer.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  return { name, status: answer.status, code, retryAfter: answer.headers['retry-after'], ms };
}

/** The app over `database`, up and ready. */
async function appOver(database: OwnFerretDb, env: Readonly<Record<string, string>>): Promise<{ app: AppProcess; url: string }> {
  const app = runApp(main, {
    PORT: '0', HOST: '127.0.0.1', API_KEYS: key, LOG_LEVEL: 'silent', STORAGE: 'mongodb', MONGODB_URI: database.uri('workplan_stall'), ...env,
  });
  const url = await app.listening();
  // On an empty database: its start makes the indexes and looks for records without their
  // folded text, a second or two, longer on a busy machine.
  await untilReady(url, 60_000);
  return { app, url };
}

/** Puts `count` work schedules straight into the app's collection, in the shape the app writes (their folded text too, or the app's start would backfill it); resolves the first one's id. */
async function seed(database: OwnFerretDb, count: number): Promise<string> {
  const client = await MongoClient.connect(database.uri('workplan_stall'));
  try {
    const collection = client.db().collection<RecordDocument>('workSchedules');
    const start = Date.now();
    const first = new UUID();
    for (let from = 0; from < count; from += 1000) {
      await collection.insertMany(Array.from({ length: Math.min(1000, count - from) }, (_, n) => {
        const at = new Date(start + from + n);
        const value = `escala ${from + n}`;
        return { _id: from + n === 0 ? first : new UUID(), value, key: value, folded: foldText(value), createdAt: at, updatedAt: at };
      }));
    }
    return first.toHexString(true);
  } finally {
    await client.close();
  }
}

/** The processor time FerretDB spends on one list of the last 1,000 of `records`, read to its end as the app reads it. */
async function cpuOfOneList(database: OwnFerretDb, records: number): Promise<number> {
  const client = await MongoClient.connect(database.uri('workplan_stall'));
  try {
    const before = await database.cpuMs();
    await client.db().collection<RecordDocument>('workSchedules').find({}).sort({ createdAt: 1, _id: 1 }).skip(records - 1000).limit(1000).toArray();
    return (await database.cpuMs()) - before;
  } finally {
    await client.close();
  }
}

/** The processor time FerretDB has used once half a second passes with next to none used (at most a minute's wait). */
async function untilQuiet(database: OwnFerretDb): Promise<number> {
  const QUIET_MS = 30;
  const deadline = Date.now() + 60_000;
  let last = await database.cpuMs();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await database.cpuMs();
    if (now - last <= QUIET_MS) return now;
    last = now;
  }
  throw new Error('FerretDB was still busy a minute after the lists were answered');
}

describe.skipIf(ferretdb === undefined)('the app as a process over a MongoDB that stalls or crawls', () => {
  it(
    'hostile 4: with the database frozen, a find, a list, a create, an update and /health/ready each answer 503 within MONGODB_TIMEOUT_MS, and it recovers when the database does',
    async () => {
      const database = await OwnFerretDb.prepare(ferretdb ?? '');
      await database.start();
      const { app, url } = await appOver(database, { MONGODB_TIMEOUT_MS: String(TIMEOUT_MS), REQUEST_TIMEOUT_MS: String(REQUEST_DEADLINE_MS) });
      try {
        const created = await send(url, { method: 'POST', path: '/api/v1/scale', headers: json, body: JSON.stringify({ value: 'antes' }) });
        expect(created.status).toBe(201);
        const id = (created.json as { data: { id: string } }).data.id;
        const requests: [string, HttpCall][] = [
          ['find', { path: `/api/v1/scale/${id}`, headers: { key } }],
          ['list', { path: '/api/v1/scales', headers: { key } }],
          ['create', { method: 'POST', path: '/api/v1/scale', headers: json, body: JSON.stringify({ value: 'durante' }) }],
          ['update', { method: 'PUT', path: `/api/v1/scale/${id}`, headers: json, body: JSON.stringify({ value: 'alterado' }) }],
          ['ready', { path: '/health/ready' }],
        ];
        // Warm: reads and readiness checks, several at once, so the pool holds open connections.
        const reads = requests.filter(([name]) => name !== 'create' && name !== 'update');
        for (const answer of await Promise.all([...reads, ...reads].map(([name, call]) => timed(url, name, call)))) {
          expect(answer.status).toBe(200);
        }

        database.freeze();
        const oneByOne: Timed[] = [];
        for (const [name, call] of requests) oneByOne.push(await timed(url, name, call));
        const atOnce = await Promise.all(requests.map(([name, call]) => timed(url, `${name} (at once)`, call)));
        database.thaw();

        const answers = [...oneByOne, ...atOnce];
        console.info(`hostile 4: answers with the database frozen (ms): ${answers.map(({ name, ms }) => `${name} ${ms}`).join(', ')}`);
        expect(answers.map(({ name, status, code, retryAfter }) => ({ name, status, code, retryAfter }))).toEqual(
          answers.map(({ name }) => ({ name, status: 503, code: 'STORAGE_UNAVAILABLE', retryAfter: '2' })),
        );

        await untilReady(url, 10_000);
        expect((await send(url, { path: `/api/v1/scale/${id}`, headers: { key } })).status).toBe(200);
        expect((await send(url, { method: 'POST', path: '/api/v1/scale', headers: json, body: JSON.stringify({ value: 'depois' }) })).status).toBe(201);
        expect((await send(url, { method: 'PUT', path: `/api/v1/scale/${id}`, headers: json, body: JSON.stringify({ value: 'recuperado' }) })).status).toBe(200);
      } finally {
        database.thaw();
        expect(await app.stop()).toBe(0);
        await database.kill();
      }
    },
    120_000,
  );

  it(
    'hostile 7: lists answered by the request deadline stop their work in the database',
    async () => {
      const database = await OwnFerretDb.prepare(ferretdb ?? '');
      await database.start();
      // The storage may take longer than the request: the deadline answers first, and the
      // lists it answers must not go on running in the database. The records come after the
      // app is up: its subject is the lists, not a start over such a collection (start-up
      // work slower than a request: adapter-mongodb's stalled-server.int.test.ts).
      const { app, url } = await appOver(database, { REQUEST_TIMEOUT_MS: '500', MONGODB_TIMEOUT_MS: '10000' });
      const records = 30_000;
      try {
        const id = await seed(database, records);
        expect((await send(url, { path: `/api/v1/scale/${id}`, headers: { key } })).status).toBe(200);
        // What one list costs the database when nothing stops it (the test's own client has no
        // deadline): the 16 below, run to their end, would cost 16 times that. Processor time,
        // not a duration, so a busy machine changes neither side of the comparison.
        const oneListMs = Math.min(await cpuOfOneList(database, records), await cpuOfOneList(database, records));
        const before = await database.cpuMs();
        // Each of these reads and sorts every record on FerretDB.
        const lists = Array.from({ length: 16 }, () => send(url, { path: `/api/v1/scales/${records - 1000}/1000`, headers: { key } }));
        const statuses = (await Promise.all(lists)).map((answer) => answer.status);
        expect(statuses).toEqual(statuses.map(() => 503));

        // Lists called off stop soon; lists left running go on until their work is done: either
        // way the database falls quiet, and what it spent until then tells the two apart.
        const spentMs = (await untilQuiet(database)) - before;
        console.info(`hostile 7: 16 lists answered 503 cost FerretDB ${spentMs} ms of processor time; one list run to its end ${oneListMs} ms`);
        expect(spentMs).toBeLessThan(8 * oneListMs);
        expect((await send(url, { path: `/api/v1/scale/${id}`, headers: { key } })).status).toBe(200);
      } finally {
        expect(await app.stop()).toBe(0);
        await database.kill();
      }
    },
    // A safety net only: the test waits for conditions (the app ready, the database quiet).
    240_000,
  );
});
