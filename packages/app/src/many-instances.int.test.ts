import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeWithTestDatabase } from '@workplan/testing/mongodb';
import { runApp, send, untilReady, type AppProcess, type HttpAnswer } from '@workplan/testing';
import { describe, expect, it } from 'vitest';

// Several app processes over one database, as a load balancer would spread them: the
// entity-tag race, one value created everywhere at once, and a rolling restart.
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const key = 'instances-test-key-0123456789';
const json = { key, 'content-type': 'application/json' };

/** An app process that is up and ready, with its URL. */
interface Instance {
  readonly app: AppProcess;
  readonly url: string;
}

async function startInstance(storage: Readonly<Record<string, string>>): Promise<Instance> {
  const app = runApp(main, { PORT: '0', HOST: '127.0.0.1', API_KEYS: key, LOG_LEVEL: 'silent', ...storage });
  const url = await app.listening();
  await untilReady(url);
  return { app, url };
}

async function startInstances(count: number, storage: Readonly<Record<string, string>>): Promise<Instance[]> {
  return Promise.all(Array.from({ length: count }, () => startInstance(storage)));
}

async function stopAll(instances: readonly Instance[]): Promise<void> {
  expect(await Promise.all(instances.map((instance) => instance.app.stop()))).toEqual(instances.map(() => 0));
}

const dataOf = (answer: HttpAnswer) => (answer.json as { data: Record<string, string> }).data;

function describeManyInstances(storageName: string, storageOf: () => Promise<Record<string, string>>): void {
  it(`${storageName}: of 50 concurrent PUTs with one If-Match split over two instances, exactly one wins`, async () => {
    const instances = await startInstances(2, await storageOf());
    try {
      const [first] = instances as [Instance, Instance];
      const created = await send(first.url, { method: 'POST', path: '/api/v1/costCenter', headers: json, body: JSON.stringify({ title: 'Disputado' }) });
      const { id } = dataOf(created);
      const tag = created.headers.etag ?? '';
      const puts = Array.from({ length: 50 }, (_, n) =>
        send(instances[n % 2]?.url ?? '', {
          method: 'PUT',
          path: `/api/v1/costCenter/${id ?? ''}`,
          headers: { ...json, 'if-match': tag },
          body: JSON.stringify({ title: `Vencedor ${n}` }),
        }),
      );
      const answers = await Promise.all(puts);
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 412)).toHaveLength(49);
      const winner = answers.find((answer) => answer.status === 200);
      for (const instance of instances) {
        const found = await send(instance.url, { path: `/api/v1/costCenter/${id ?? ''}`, headers: { key } });
        expect(dataOf(found)).toEqual(winner && dataOf(winner));
        expect(found.headers.etag).toBe(winner?.headers.etag);
      }
    } finally {
      await stopAll(instances);
    }
  });

  it(`${storageName}: of 100 concurrent creates of one value spread over three instances, exactly one is kept`, async () => {
    const instances = await startInstances(3, await storageOf());
    try {
      const creates = Array.from({ length: 100 }, (_, n) =>
        send(instances[n % 3]?.url ?? '', { method: 'POST', path: '/api/v1/scale', headers: json, body: JSON.stringify({ value: '12x36' }) }),
      );
      const statuses = (await Promise.all(creates)).map((answer) => answer.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(99);
      const listed = await send(instances[0]?.url ?? '', { path: '/api/v1/scales', headers: { key } });
      expect((listed.json as { data: unknown[] }).data).toHaveLength(1);
    } finally {
      await stopAll(instances);
    }
  });

  it(`${storageName}: a rolling restart of two instances under steady reads and writes loses no acknowledged write`, async () => {
    const storage = await storageOf();
    let live = await startInstances(2, storage);
    const outcomes = { answered: 0, refused: 0 };
    const acknowledged: string[] = [];
    const unanswered: string[] = [];
    const failures: string[] = [];
    let running = true;

    // Each worker sends a create or a read to a live instance, one fresh connection per
    // request, as a load balancer spreading clients would, until the restarts are done.
    const worker = async (n: number) => {
      for (let i = 0; running; i += 1) {
        const target = live[(n + i) % live.length]?.url ?? '';
        const title = `Rolante ${n}-${i}`;
        const request = i % 2 === 0
          ? { method: 'POST', path: '/api/v1/costCenter', headers: json, body: JSON.stringify({ title }) }
          : { path: '/api/v1/costCenters/5', headers: { key } };
        try {
          const answer = await send(target, request);
          outcomes.answered += 1;
          if (answer.status === 201) acknowledged.push(title);
          else if (answer.status !== 200) failures.push(`${answer.status} ${answer.text}`);
        } catch (error) {
          // The instance had stopped accepting: the request reached no app, so it must have changed nothing.
          outcomes.refused += 1;
          if (i % 2 === 0) unanswered.push(title);
          if (!/ECONNREFUSED|ECONNRESET|socket hang up/u.test(String(error))) failures.push(String(error));
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const workers = Array.from({ length: 4 }, (_, n) => worker(n));
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (let index = 0; index < 2; index += 1) {
        const stopping = live[index] as Instance;
        expect(await stopping.app.stop()).toBe(0);
        const restarted = await startInstance(storage);
        live = live.map((instance) => (instance === stopping ? restarted : instance));
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    } finally {
      running = false;
      await Promise.all(workers);
    }
    try {
      expect(failures).toEqual([]);
      expect(outcomes.answered).toBeGreaterThan(50);
      const listed = await send(live[0]?.url ?? '', { path: '/api/v1/costCenters', headers: { key } });
      const titles = new Set((listed.json as { data: { title: string }[] }).data.map((record) => record.title));
      expect(acknowledged.filter((title) => !titles.has(title))).toEqual([]);
      expect(unanswered.filter((title) => titles.has(title))).toEqual([]);
    } finally {
      await stopAll(live);
    }
  }, 60_000);
}

describe('many instances over one SQLite file', () => {
  describeManyInstances('sqlite', async () => ({ SQLITE_PATH: join(await mkdtemp(join(tmpdir(), 'workplan-instances-')), 'workplan.db') }));
});

// The three tests share one database: their records do not meet (other values, other kinds).
await describeWithTestDatabase('many instances over one MongoDB database', (database) => {
  // The storage's bound as long as the request's (10 s): the races are the subject, not a
  // slow database, which a shared test database on a busy machine is (2 s answered 503s).
  describeManyInstances('mongodb', () => Promise.resolve({ STORAGE: 'mongodb', MONGODB_URI: database.uri, MONGODB_TIMEOUT_MS: '10000' }));
});
