import { describeWithTestDatabase } from '@workplan/testing/mongodb';
import { describeDeliveryLedgerContract } from '@workplan/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { MongoDeliveryLedger, type DeliveryStateDocument } from './mongo-delivery-ledger.js';
import { useTestCollections } from './test-support/test-collections.js';
import { useTestStorages } from './test-support/test-storages.js';

const at = (second: number): Date => new Date(Date.UTC(2026, 10, 25, 9, 0, second));

await describeWithTestDatabase('MongoDeliveryLedger', (database) => {
  const storages = useTestStorages(database);
  const collections = useTestCollections(database);

  describeDeliveryLedgerContract('mongodb', async () => (await storages.fresh()).storage.deliveryLedger);

  it('gives an expired lease to exactly one of two instances of the app taking it over at once, and stops the other from moving the cursor', async () => {
    const { storage: first, dbName } = await storages.fresh();
    const second = await storages.again(dbName);
    await first.deliveryLedger.claim('folha', 'gone', at(0), at(30));
    const [a, b] = await Promise.all([first.deliveryLedger.claim('folha', 'a', at(40), at(70)), second.deliveryLedger.claim('folha', 'b', at(40), at(70))]);
    expect([a, b].filter((claim) => claim !== undefined)).toHaveLength(1);
    const [winner, loser] = a === undefined ? (['b', 'a'] as const) : (['a', 'b'] as const);
    const [winning, losing] = winner === 'a' ? [first, second] : [second, first];
    expect(await losing.deliveryLedger.advance('folha', loser, 5)).toBe(false);
    expect(await winning.deliveryLedger.advance('folha', winner, 5)).toBe(true);
    expect(await losing.deliveryLedger.state('folha')).toMatchObject({ cursor: 5, lease: { holder: winner } });
  });

  it('stops an instance that was taken over from moving the cursor, though the state it last wrote still has its lease', async () => {
    const { storage: first, dbName } = await storages.fresh();
    const second = await storages.again(dbName);
    await first.deliveryLedger.claim('folha', 'a', at(0), at(30));
    await second.deliveryLedger.claim('folha', 'b', at(40), at(70));
    expect(await first.deliveryLedger.advance('folha', 'a', 3)).toBe(false);
    expect(await first.deliveryLedger.fail('folha', 'a', { lastError: 'HTTP 503', failingSince: at(41), attempts: 1, nextAttempt: at(42), markedFailingAt: null })).toBe(false);
    await first.deliveryLedger.release('folha', 'a');
    expect(await first.deliveryLedger.state('folha')).toEqual({ subscription: 'folha', cursor: 0, lease: { holder: 'b', expiresAt: at(70) }, failure: null });
    expect(await second.deliveryLedger.advance('folha', 'b', 3)).toBe(true);
  });

  it('removes the versions superseded longer ago than a write may land, keeping the rest and the state', { timeout: 30_000 }, async () => {
    const collection = collections.db().collection<DeliveryStateDocument>('webhookDeliveries_retired');
    // Writes may land up to the call's time plus the lease after the version they read: here 3 s in all.
    const ledger = new MongoDeliveryLedger({ collection, timeoutMS: 3000, leaseMs: 0 });
    const now = new Date();
    await ledger.claim('folha', 'a', now, new Date(now.getTime() + 60_000));
    for (let cursor = 1; cursor <= 5; cursor += 1) await ledger.advance('folha', 'a', cursor);
    const versions = async () => (await collection.find({ subscription: 'folha' }).toArray()).map((d) => d.version).sort((x, y) => x - y);
    expect(await versions()).toEqual([1, 2, 3, 4, 5, 6]);

    await sleep(3200);
    expect(await ledger.advance('folha', 'a', 6)).toBe(true);
    // Version 6 stays: the one after it was written just now.
    expect(await versions()).toEqual([6, 7]);
    expect(await ledger.advance('folha', 'a', 7)).toBe(true);
    expect(await ledger.state('folha')).toMatchObject({ cursor: 7, lease: { holder: 'a' } });
  });
});
