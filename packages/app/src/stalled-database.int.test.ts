import { fileURLToPath } from 'node:url';
import { ferretdbBinary, OwnFerretDb } from '@workplan/adapter-mongodb/testing';
import { runApp, send, untilReady, type HttpAnswer, type HttpCall } from '@workplan/testing';
import { describe, expect, it } from 'vitest';

// The app as a process of its own over a FerretDB of the test's own, frozen with SIGSTOP
// while the app's connections to it are open and warm: the database stalls rather than
// goes away, so nothing refuses a connection and only the app's own bounds answer.
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const ferretdb = ferretdbBinary('the stalled-database test');
const key = 'stalled-test-key-0123456789';
const json = { key, 'content-type': 'application/json' };

const TIMEOUT_MS = 800;
// What an answer may take beyond the storage's bound: the HTTP exchange on loopback and a
// busy two-core machine. Far below the request deadline (10 s) the bound replaces.
const MARGIN_MS = 1000;

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

describe.skipIf(ferretdb === undefined)('the app as a process over a MongoDB that stalls', () => {
  it(
    'hostile 4: with the database frozen, a find, a list, a create, an update and /health/ready each answer 503 within MONGODB_TIMEOUT_MS, and it recovers when the database does',
    async () => {
      const database = await OwnFerretDb.prepare(ferretdb ?? '');
      await database.start();
      const app = runApp(main, {
        PORT: '0', HOST: '127.0.0.1', API_KEYS: key, LOG_LEVEL: 'silent',
        STORAGE: 'mongodb', MONGODB_URI: database.uri('workplan_stall'), MONGODB_TIMEOUT_MS: String(TIMEOUT_MS),
      });
      try {
        const url = await app.listening();
        await untilReady(url, 30_000);
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
        expect(answers.filter(({ ms }) => ms > TIMEOUT_MS + MARGIN_MS)).toEqual([]);

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
});
