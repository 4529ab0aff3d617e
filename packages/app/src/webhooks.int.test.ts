import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describedChanges } from '@workplan/adapter-express';
import { connectMongo, type MongoStorage } from '@workplan/adapter-mongodb';
import { createWorkplan, seedKinds } from '@workplan/core';
import { startReceiver } from '@workplan/testing';
import { describeWithTestDatabase } from '@workplan/testing/mongodb';
import { WebhookDeliverer, type DeliveryEvent } from '@workplan/webhooks';
import { expect, it } from 'vitest';
import { webhookProcessScenarios } from './testing/webhook-processes.js';

await describeWithTestDatabase('webhooks on MongoDB', (database) => {
  // Each scenario on a database of its own: its change ids start at 1, and no lease of another is left.
  webhookProcessScenarios(() => Promise.resolve({ STORAGE: 'mongodb', MONGODB_URI: database.another().uri }));

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
          wording: describedChanges(seedKinds),
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
        const workplan = createWorkplan({ repositories: storage.repositories, changes: storage.changes });
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
