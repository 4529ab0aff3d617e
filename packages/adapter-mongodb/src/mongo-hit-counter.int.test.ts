import { describeWithTestDatabase } from '@workplan/testing/mongodb';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MongoHitCounter, type HitDocument } from './mongo-hit-counter.js';

const MINUTE = 60_000;
// A window that ends an hour from now: MongoDB's TTL monitor removes the tickets of a window
// once the clock has passed its end, which a slow run would otherwise see in the middle of a test.
const window = Math.floor(Date.now() / MINUTE) * MINUTE + 60 * MINUTE;

await describeWithTestDatabase('MongoHitCounter', (database) => {
  let clients: MongoClient[];
  let collections = 0;

  beforeAll(async () => {
    clients = await Promise.all([MongoClient.connect(database.uri), MongoClient.connect(database.uri)]);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
  });

  /** Two counters, as two instances of the service would have, over one new collection. */
  async function twoCounters(): Promise<[MongoHitCounter, MongoHitCounter]> {
    collections += 1;
    const [first, second] = clients.map((client) => new MongoHitCounter(client.db().collection<HitDocument>(`hits_${collections}`), 5000));
    if (first === undefined || second === undefined) throw new Error('two clients expected');
    await Promise.all([first.ensureIndexes(), second.ensureIndexes()]);
    return [first, second];
  }

  it('hostile 6: of 60 hits at once through two counters, each gets its own count, from 1 to 60', async () => {
    const [first, second] = await twoCounters();
    const hits = await Promise.all(Array.from({ length: 60 }, (_, n) => (n % 2 === 0 ? first : second).hit('requests:k', window, MINUTE)));
    expect(hits.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, n) => n + 1));
    await expect(first.hit('requests:other', window, MINUTE)).resolves.toBe(1);
  });

  it('hostile 6: a counter that is far behind (a new instance) catches up with the count', async () => {
    const [first, second] = await twoCounters();
    for (let n = 0; n < 37; n += 1) await first.hit('requests:k', window, MINUTE);
    await expect(second.hit('requests:k', window, MINUTE)).resolves.toBe(38);
    await expect(first.hit('requests:k', window, MINUTE)).resolves.toBe(39);
  });

  it('starts each window from one, and the tickets of ended windows go', async () => {
    const [first] = await twoCounters();
    for (let n = 0; n < 3; n += 1) await first.hit('requests:k', window - MINUTE, MINUTE);
    await expect(first.hit('requests:k', window, MINUTE)).resolves.toBe(1);
    const collection = clients[0]?.db().collection<HitDocument>(`hits_${collections}`);
    const indexes = (await collection?.indexes()) ?? [];
    const tickets = (await collection?.find({}).toArray()) ?? [];
    // MongoDB removes them itself, by the TTL index; a server without one (FerretDB 1.x) has them swept.
    const expiring = indexes.some((index) => index.expireAfterSeconds === 0 && index.key['expiresAt'] === 1);
    if (!expiring) expect(tickets.map((ticket) => ticket._id)).toEqual([`requests:k|${window}|1`]);
    else expect(tickets.every((ticket) => ticket.expiresAt instanceof Date)).toBe(true);
  });
});
