import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeWithTestDatabase } from '@workplan/testing/mongodb';
import { clearOfMinuteEnd, expectProblem, runApp, send, untilReady, type AppProcess } from '@workplan/testing';
import { describe, expect, it } from 'vitest';

// Two app processes over one database, as behind a load balancer: the rate limit is the
// service's, not each process's.
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const key = 'limits-test-key-0123456789';
const LIMIT = 10;

interface Instance {
  readonly app: AppProcess;
  readonly url: string;
}

async function startInstance(storage: Readonly<Record<string, string>>): Promise<Instance> {
  const app = runApp(main, {
    PORT: '0', HOST: '127.0.0.1', API_KEYS: key, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: String(LIMIT), ...storage,
  });
  const url = await app.listening();
  await untilReady(url);
  return { app, url };
}

/** Waits out the end of the minute if it is near: counts start over at each whole minute. */
function describeSharedLimits(storageName: string, storageOf: () => Promise<Record<string, string>>): void {
  it(
    `hostile 6: ${storageName}: RATE_LIMIT_PER_MINUTE holds across two instances: ${LIMIT} requests split over both, then the next on either is 429`,
    async () => {
      const storage = await storageOf();
      const instances = await Promise.all([startInstance(storage), startInstance(storage)]);
      const [first, second] = instances;
      try {
        await clearOfMinuteEnd(20_000);
        const list = (instance: Instance, sent = key) => send(instance.url, { path: '/api/v1/scales', headers: { key: sent } });
        const allowed = await Promise.all(Array.from({ length: LIMIT }, (_, n) => list(n % 2 === 0 ? first : second)));
        expect(allowed.map((answer) => answer.status)).toEqual(allowed.map(() => 200));
        for (const instance of instances) {
          expectProblem(await list(instance), 429, 'RATE_LIMITED', 'Não foi possível retornar as escalas de trabalho.');
        }
        // Failed key attempts from one address are counted across both, too.
        const wrong = 'wrong-key-0123456789';
        const refused = await Promise.all(Array.from({ length: LIMIT }, (_, n) => list(n % 2 === 0 ? first : second, wrong)));
        expect(refused.map((answer) => answer.status)).toEqual(refused.map(() => 401));
        for (const instance of instances) expect((await list(instance, wrong)).status).toBe(429);
      } finally {
        expect(await Promise.all(instances.map((instance) => instance.app.stop()))).toEqual([0, 0]);
      }
    },
    120_000,
  );
}

describe('rate limits shared through one SQLite file', () => {
  describeSharedLimits('sqlite', async () => ({ SQLITE_PATH: join(await mkdtemp(join(tmpdir(), 'workplan-limits-')), 'workplan.db') }));
});

await describeWithTestDatabase('rate limits shared through one MongoDB database', (database) => {
  describeSharedLimits('mongodb', () => Promise.resolve({ STORAGE: 'mongodb', MONGODB_URI: database.uri }));
});
