import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describedChanges } from '@workplan/adapter-express';
import { connectMongo, type MongoStorage } from '@workplan/adapter-mongodb';
import { createWorkplan } from '@workplan/core';
import { send, startReceiver, untilReady } from '@workplan/testing';
import { describeWithTestDatabase } from '@workplan/testing/mongodb';
import { expect, it } from 'vitest';
import { parseConfig } from './config.js';
import { startService, type RunningService } from './service.js';
import { WebhookDeliverer, type DeliveryEvent } from '@workplan/webhooks';

const KEY = 'webhooks-mongo-key-0123456789';

await describeWithTestDatabase('webhooks on MongoDB', (database) => {
  it('delivers each change once, in order, from two instances sharing one database and one subscriptions file', { timeout: 60_000 }, async () => {
    const receiver = await startReceiver();
    const file = join(await mkdtemp(join(tmpdir(), 'workplan-webhooks-')), 'webhooks.json');
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    await writeFile(file, JSON.stringify({ subscriptions: [{ name: 'folha', url: receiver.url, secret }] }));
    const env = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', API_KEYS: `${KEY} name=RH`, STORAGE: 'mongodb', MONGODB_URI: database.uri, WEBHOOKS_FILE: file };
    const instances: RunningService[] = [];
    try {
      for (let i = 0; i < 2; i += 1) {
        const started = await startService(parseConfig(env));
        instances.push(started);
        await untilReady(started.url);
      }
      const writes = 6;
      for (let i = 0; i < writes; i += 1) {
        const through = instances[i % 2]?.url ?? '';
        const answer = await send(through, { method: 'POST', path: '/api/v1/scale', headers: { key: KEY, 'content-type': 'application/json' }, body: JSON.stringify({ value: `turno ${String(i)}` }) });
        expect(answer.status).toBe(201);
      }
      await receiver.until((posts) => posts.length >= writes, 30_000);
      // Long enough for a second deliverer, had it one, to send its copies.
      await sleep(1000);
      const sent = receiver.posts.map((post) => String(post.headers['webhook-id']));
      expect(sent).toEqual(['1', '2', '3', '4', '5', '6']);
      for (const instance of instances) {
        const listed = await send(instance.url, { path: '/api/v1/webhooks', headers: { key: KEY } });
        expect(listed.json).toMatchObject({ success: true, data: [{ name: 'folha', cursor: '6', lagChanges: 0, failing: false }] });
      }
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
      await receiver.close();
    }
  });

  it('has the other instance take over, from the cursor, once the delivering one dies, sending nothing twice', { timeout: 60_000 }, async () => {
    const receiver = await startReceiver();
    const { dbName } = database.another();
    const storages: MongoStorage[] = [];
    const deliverers: WebhookDeliverer[] = [];
    const delivered = new Map<string, string[]>();
    try {
      for (const holder of ['a', 'b']) {
        const storage = await connectMongo({ uri: database.uri, dbName, timeoutMS: 10_000 });
        storages.push(storage);
        const deliverer = new WebhookDeliverer({
          changes: storage.changes,
          ledger: storage.deliveryLedger,
          holder,
          wording: describedChanges(),
          // A lease of three attempts, as by default, short enough for a takeover within the test.
          timings: { attemptTimeoutMs: 200, leaseMs: 600, backoff: { firstMs: 20, maxMs: 80 } },
          onEvent: (event: DeliveryEvent) => {
            if (event.type === 'delivered') delivered.set(holder, [...(delivered.get(holder) ?? []), event.changeId]);
          },
        });
        deliverers.push(deliverer);
        await deliverer.deliverTo([{ name: 'folha', url: receiver.url, secret: `whsec_${randomBytes(32).toString('base64')}`, resources: ['scale'] }]);
      }
      const [first, second] = storages as [MongoStorage, MongoStorage];
      const write = async (storage: MongoStorage, from: number, to: number) => {
        const workplan = createWorkplan({ ...storage.repositories, changes: storage.changes });
        for (let i = from; i <= to; i += 1) await workplan.workSchedules.create({ value: `turno ${String(i)}` }, { by: 'RH' });
      };
      await write(first, 1, 4);
      await receiver.until((posts) => posts.length >= 4, 30_000);
      // The cursor moves, and the event is told, just after the receiver answers.
      while ((await first.deliveryLedger.state('folha'))?.cursor !== 4) await sleep(20);
      const holder = (await first.deliveryLedger.state('folha'))?.lease?.holder;
      expect(delivered.get(holder ?? '')).toEqual(['1', '2', '3', '4']);

      // The holder's database connection goes: it can neither deliver nor give its lease up.
      await storages[holder === 'a' ? 0 : 1]?.close();
      const survivor = holder === 'a' ? second : first;
      await write(survivor, 5, 8);
      await receiver.until((posts) => posts.length >= 8, 30_000);
      await sleep(500);
      expect(receiver.posts.map((post) => String(post.headers['webhook-id']))).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
      expect(delivered.get(holder === 'a' ? 'b' : 'a')).toEqual(['5', '6', '7', '8']);
      expect(await survivor.deliveryLedger.state('folha')).toMatchObject({ cursor: 8, lease: { holder: holder === 'a' ? 'b' : 'a' } });
    } finally {
      await Promise.all(deliverers.map((deliverer) => deliverer.stop()));
      await Promise.all(storages.map((storage) => storage.close()));
      await receiver.close();
    }
  });
});
