import { describeWithTestDatabase } from '@workplan/testing/mongodb';
import { describeDeliveryLedgerContract } from '@workplan/testing';
import { expect, it } from 'vitest';
import { useTestStorages } from './test-support/test-storages.js';

const at = (second: number): Date => new Date(Date.UTC(2026, 10, 25, 9, 0, second));

await describeWithTestDatabase('MongoDeliveryLedger', (database) => {
  const storages = useTestStorages(database);

  describeDeliveryLedgerContract('mongodb', async () => (await storages.fresh()).storage.deliveries);

  it('gives an expired lease to exactly one of two instances of the app taking it over at once, and stops the other from moving the cursor', async () => {
    const { storage: first, dbName } = await storages.fresh();
    const second = await storages.again(dbName);
    await first.deliveries.claim('folha', 'gone', at(0), at(30));
    const [a, b] = await Promise.all([first.deliveries.claim('folha', 'a', at(40), at(70)), second.deliveries.claim('folha', 'b', at(40), at(70))]);
    expect([a, b].filter((claim) => claim !== undefined)).toHaveLength(1);
    const [winner, loser] = a === undefined ? (['b', 'a'] as const) : (['a', 'b'] as const);
    const [winning, losing] = winner === 'a' ? [first, second] : [second, first];
    expect(await losing.deliveries.advance('folha', loser, 5)).toBe(false);
    expect(await winning.deliveries.advance('folha', winner, 5)).toBe(true);
    expect(await losing.deliveries.state('folha')).toMatchObject({ cursor: 5, lease: { holder: winner } });
  });
});
