import { randomBytes } from 'node:crypto';
import { describedChanges } from '@workplan/adapter-express';
import { createMemoryStorage, MemoryDeliveryLedger, type MemoryStorage } from '@workplan/adapter-memory';
import { createWorkplan, seedKinds, type Clock, type Workplan } from '@workplan/core';
import { startReceiver, type ReceivedPost, type WebhookReceiver } from '@workplan/testing';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebhookDeliverer } from './deliverer.js';
import { type DeliveryEvent, type DeliveryTimings } from './delivery-settings.js';
import { type Subscription } from './subscriptions.js';

// Short times so that retries, timeouts and takeovers happen within a test; the lease lasts
// three attempts, as by default, so a stall of the event loop does not lose it mid-attempt.
const timings: Partial<DeliveryTimings> = {
  attemptTimeoutMs: 200,
  backoff: { firstMs: 20, maxMs: 80 },
  retryPeriodMs: 60_000,
  leaseMs: 600,
};

const secret = `whsec_${randomBytes(32).toString('base64')}`;

/** The change ids the receiver was sent, in order, whatever it answered. */
const idsOf = (posts: readonly ReceivedPost[]): string[] => posts.map((post) => String(post.headers['webhook-id']));

/** The change ids the receiver acknowledged, in order. */
const acknowledged = (posts: readonly ReceivedPost[]): string[] =>
  idsOf(posts.filter((post) => typeof post.answer === 'object' && post.answer.status < 300));

const sequence = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

describe('the webhook deliverer', () => {
  let storage: MemoryStorage;
  let workplan: Workplan;
  let ledger: MemoryDeliveryLedger;
  let receiver: WebhookReceiver;
  let events: DeliveryEvent[];
  const running: WebhookDeliverer[] = [];
  const closing: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    storage = createMemoryStorage();
    workplan = createWorkplan({ repositories: storage.repositories, changes: storage.changes });
    ledger = new MemoryDeliveryLedger();
    receiver = await startReceiver();
    closing.push(() => receiver.close());
    events = [];
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((deliverer) => deliverer.stop()));
    await Promise.all(closing.splice(0).map((close) => close()));
  });

  const subscription = (overrides: Partial<Subscription> = {}): Subscription => ({
    name: 'folha',
    url: receiver.url,
    secret,
    resources: ['scale', 'costCenter'],
    ...overrides,
  });

  const deliverer = async (subscriptions = [subscription()], holder = 'instance-a', extra: Partial<DeliveryTimings> = {}): Promise<WebhookDeliverer> => {
    const started = new WebhookDeliverer({
      changes: storage.changes,
      ledger,
      holder,
      wording: describedChanges(seedKinds),
      timings: { ...timings, ...extra },
      onEvent: (event) => events.push(event),
    });
    running.push(started);
    await started.deliverTo(subscriptions);
    return started;
  };

  const schedules = async (count: number): Promise<void> => {
    for (let i = 0; i < count; i += 1) await workplan.workSchedules.create({ value: `turno ${i} ${randomBytes(4).toString('hex')}` }, { by: 'RH' });
  };

  it('POSTs each change once, in commit order, signed so that standardwebhooks verifies it, as the HTTP API writes it', async () => {
    const schedule = await workplan.workSchedules.create({ value: '12x36' }, { by: 'Folha' });
    const center = await workplan.costCenters.create({ title: 'Manutenção Elétrica' }, { by: 'RH' });
    const updated = await workplan.workSchedules.update(schedule.id, { value: '6x1' }, undefined, { by: 'RH' });
    await deliverer();
    await receiver.until((posts) => posts.length === 3);
    expect(idsOf(receiver.posts)).toEqual(['1', '2', '3']);
    const verified = receiver.posts.map((post) => new Webhook(secret).verify(post.body, post.headers as Record<string, string>));
    expect(verified).toEqual([
      { id: '1', resource: 'scale', recordId: schedule.id, action: 'create', at: schedule.updatedAt.toISOString(), by: 'Folha', data: json(schedule), previous: null },
      { id: '2', resource: 'costCenter', recordId: center.id, action: 'create', at: center.updatedAt.toISOString(), by: 'RH', data: json(center), previous: null },
      { id: '3', resource: 'scale', recordId: schedule.id, action: 'update', at: updated.updatedAt.toISOString(), by: 'RH', data: json(updated), previous: json(schedule) },
    ]);
    expect(receiver.posts[0]?.headers['content-type']).toBe('application/json');
  });

  it('sends the next change only after the one before was acknowledged, and goes on with changes made later', async () => {
    receiver.answerWith(() => ({ status: 200, delayMs: 2 }));
    await deliverer();
    await schedules(30);
    await until(async () => (await ledger.state('folha'))?.cursor === 30);
    expect(idsOf(receiver.posts)).toEqual(sequence(1, 30));
    expect(receiver.peakInFlight).toBe(1);
  });

  it('resumes after a stop where it stopped: a new instance sends only what was not acknowledged', async () => {
    // The stop lets the attempt in flight end: cut short, its change would be sent again.
    await schedules(3);
    const first = await deliverer();
    await receiver.until((posts) => posts.length === 3);
    await first.stop(1000);
    await schedules(3);
    await deliverer([subscription()], 'instance-b');
    await receiver.until((posts) => posts.length === 6);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(idsOf(receiver.posts)).toEqual(sequence(1, 6));
  });

  it('loses nothing and keeps the order while the receiver is down, then back', async () => {
    const { port } = receiver;
    await receiver.close();
    await deliverer();
    await schedules(5);
    await until(() => events.filter((event) => event.type === 'failed').length >= 3);
    expect(events.find((event) => event.type === 'failed')).toMatchObject({ changeId: '1', outcome: 'connection', cause: expect.stringContaining('ECONNREFUSED') as string });
    expect((await ledger.state('folha'))?.failure).toMatchObject({ lastError: expect.stringContaining('ECONNREFUSED') as string, markedFailingAt: null });
    receiver = await startReceiver(port);
    closing.push(() => receiver.close());
    await until(async () => (await ledger.state('folha'))?.cursor === 5);
    expect(idsOf(receiver.posts)).toEqual(sequence(1, 5));
    expect((await ledger.state('folha'))?.failure).toBeNull();
  });

  it('retries a change the receiver failed, and only after that sends the next', async () => {
    receiver.answerWith((_body, index) => ({ status: index < 2 ? 500 : 204 }));
    await schedules(2);
    await deliverer();
    await receiver.until((posts) => acknowledged(posts).length === 2);
    expect(idsOf(receiver.posts)).toEqual(['1', '1', '1', '2']);
    expect(events.flatMap((event) => (event.type === 'failed' ? [event.cause] : []))).toEqual(['HTTP 500', 'HTTP 500']);
  });

  it('gives up an attempt the receiver does not answer in time, and tries it again', async () => {
    receiver.answerWith((_body, index) => (index === 0 ? 'hang' : { status: 200 }));
    await schedules(2);
    const started = Date.now();
    await deliverer();
    await receiver.until((posts) => acknowledged(posts).length === 2);
    expect(idsOf(receiver.posts)).toEqual(['1', '1', '2']);
    expect(events.find((event) => event.type === 'failed')).toMatchObject({ changeId: '1', outcome: 'timeout', cause: 'no answer in 0.2 s' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('stops within its grace even while a receiver hangs, and gives the lease up', async () => {
    receiver.answerWith(() => 'hang');
    await schedules(1);
    const started = await deliverer([subscription()], 'instance-a', { attemptTimeoutMs: 10_000 });
    await receiver.until((posts) => posts.length === 1);
    // Waiting for the attempt's 10 s, the stop would outlast the test: ended at all, it was by its grace.
    await started.stop(100);
    expect(await ledger.state('folha')).toMatchObject({ cursor: 0, lease: null, failure: null });
  });

  it('counts a reset connection as a failure', async () => {
    receiver.answerWith((_body, index) => (index === 0 ? 'reset' : { status: 200 }));
    await schedules(1);
    await deliverer();
    await receiver.until((posts) => acknowledged(posts).length === 1);
    expect(events.find((event) => event.type === 'failed')).toMatchObject({ outcome: 'connection' });
  });

  it('never follows a redirect: it is a failure, retried at the same address', async () => {
    const elsewhere = await startReceiver();
    closing.push(() => elsewhere.close());
    receiver.answerWith((_body, index) => (index < 2 ? { status: 307, headers: { location: elsewhere.url } } : { status: 204 }));
    await schedules(1);
    await deliverer();
    await receiver.until((posts) => acknowledged(posts).length === 1);
    expect(idsOf(receiver.posts)).toEqual(['1', '1', '1']);
    expect(elsewhere.posts).toHaveLength(0);
    expect(events.filter((event) => event.type === 'failed')).toEqual([
      expect.objectContaining({ outcome: 'redirect', cause: 'HTTP 307 redirect, not followed' }),
      expect.objectContaining({ outcome: 'redirect' }),
    ]);
  });

  it('lets one instance at a time deliver a subscription two instances share', async () => {
    await deliverer([subscription()], 'instance-a');
    await deliverer([subscription()], 'instance-b');
    await schedules(20);
    await receiver.until((posts) => posts.length === 20);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(idsOf(receiver.posts)).toEqual(sequence(1, 20));
  });

  it('renews its lease while it delivers for longer than a lease lasts, so the other instance never sends too', async () => {
    receiver.answerWith(() => ({ status: 204, delayMs: 40 }));
    await deliverer([subscription()], 'instance-a');
    await deliverer([subscription()], 'instance-b');
    await schedules(30);
    await receiver.until((posts) => posts.length === 30);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(idsOf(receiver.posts)).toEqual(sequence(1, 30));
    expect(receiver.peakInFlight).toBe(1);
  });

  it('is taken over by the other instance when the one delivering stops', async () => {
    const a = await deliverer([subscription()], 'instance-a');
    await schedules(2);
    await receiver.until((posts) => posts.length === 2);
    const holder = (await ledger.state('folha'))?.lease?.holder;
    const b = await deliverer([subscription()], 'instance-b');
    await (holder === 'instance-a' ? a : b).stop(1000);
    await schedules(2);
    await receiver.until((posts) => posts.length === 4);
    expect(idsOf(receiver.posts)).toEqual(sequence(1, 4));
    expect((await ledger.state('folha'))?.lease?.holder).not.toBe(holder);
  });

  it('POSTs only the resources a subscription wants, and moves its cursor past the others', async () => {
    await schedules(2);
    const center = await workplan.costCenters.create({ title: 'Financeiro' });
    await schedules(1);
    const started = await deliverer([subscription({ resources: ['costCenter'] })]);
    await receiver.until((posts) => posts.length === 1);
    await until(async () => (await ledger.state('folha'))?.cursor === 4);
    expect(receiver.posts.map((post) => JSON.parse(post.body) as unknown)).toEqual([expect.objectContaining({ id: '3', recordId: center.id })]);
    expect(await started.status()).toEqual([expect.objectContaining({ cursor: '4', lagChanges: 0, lagSeconds: 0 })]);
  });

  it('passes over, with one warning, the changes retention removed before they were sent', async () => {
    workplan = createWorkplan({ repositories: storage.repositories, changes: storage.changes, clock: steppingClock(Date.UTC(2026, 0, 1)) });
    await schedules(2);
    const first = await deliverer();
    await receiver.until((posts) => posts.length === 2);
    await first.stop(1000);
    await schedules(2);
    expect(await storage.changes.prune(new Date(Date.UTC(2026, 0, 2)))).toBe(4);
    workplan = createWorkplan({ repositories: storage.repositories, changes: storage.changes, clock: steppingClock(Date.UTC(2026, 0, 3)) });
    await schedules(1);
    await deliverer([subscription()], 'instance-b');
    await receiver.until((posts) => posts.length === 3);
    expect(idsOf(receiver.posts)).toEqual(['1', '2', '5']);
    expect(events.filter((event) => event.type === 'expired')).toEqual([{ type: 'expired', subscription: 'folha', after: 2, resumedAfter: 4 }]);
  });

  it('starts a new subscription from the oldest change kept', async () => {
    workplan = createWorkplan({ repositories: storage.repositories, changes: storage.changes, clock: steppingClock(Date.UTC(2026, 0, 1)) });
    await schedules(3);
    await storage.changes.prune(new Date(Date.UTC(2026, 0, 2)));
    workplan = createWorkplan({ repositories: storage.repositories, changes: storage.changes, clock: steppingClock(Date.UTC(2026, 0, 3)) });
    await schedules(2);
    receiver.answerWith(() => ({ status: 503 }));
    const started = await deliverer();
    await receiver.until((posts) => posts.length === 1);
    expect(await started.status()).toEqual([expect.objectContaining({ cursor: '0', lagChanges: 2 })]);
    receiver.answerWith(() => ({ status: 204 }));
    await receiver.until((posts) => acknowledged(posts).length === 2);
    expect(acknowledged(receiver.posts)).toEqual(['4', '5']);
    expect(events.filter((event) => event.type === 'expired')).toEqual([]);
  });

  it('marks a subscription failing once its retries lasted the retry period, keeping its place until a reload', async () => {
    receiver.answerWith(() => ({ status: 503 }));
    await schedules(2);
    const started = await deliverer([subscription()], 'instance-a', { retryPeriodMs: 150 });
    await until(() => events.some((event) => event.type === 'failed' && event.nextAttempt === null));
    const attempts = receiver.posts.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.posts).toHaveLength(attempts);
    expect(await started.status()).toEqual([
      expect.objectContaining({ name: 'folha', cursor: '0', lagChanges: 2, lastError: 'HTTP 503', nextAttempt: null, failing: true }),
    ]);
    receiver.answerWith(() => ({ status: 204 }));
    await started.deliverTo([subscription()]);
    await until(async () => (await ledger.state('folha'))?.cursor === 2);
    expect(acknowledged(receiver.posts)).toEqual(['1', '2']);
    expect(await started.status()).toEqual([expect.objectContaining({ cursor: '2', failing: false, lastError: null })]);
  });

  it('tells where each subscription stands: its lag in changes and in seconds, and no secret', async () => {
    receiver.answerWith(() => ({ status: 500 }));
    await schedules(3);
    const started = await deliverer();
    await until(() => events.some((event) => event.type === 'failed'));
    const [status] = await started.status();
    expect(status).toEqual({
      name: 'folha',
      url: receiver.url,
      resources: ['scale', 'costCenter'],
      cursor: '0',
      lagChanges: 3,
      lagSeconds: expect.any(Number) as number,
      lastError: 'HTTP 500',
      failingSince: expect.any(Date) as Date,
      nextAttempt: expect.any(Date) as Date,
      failing: false,
    });
    expect(status?.lagSeconds).toBeGreaterThan(0);
    expect(JSON.stringify(status)).not.toContain(secret.slice(6));
  });

  it('tells a subscription’s URL whole in its status, a password too (the caller cuts it for readers)', async () => {
    const withPassword = receiver.url.replace('http://', 'http://folha:s3nha@');
    await schedules(1);
    const started = await deliverer([subscription({ url: withPassword })]);
    await receiver.until((posts) => posts.length === 1);
    expect(receiver.posts[0]?.headers.authorization).toBe(`Basic ${Buffer.from('folha:s3nha').toString('base64')}`);
    expect((await started.status())[0]?.url).toBe(withPassword);
  });

  it('keeps a subscription’s place when only the case of its name changes, on a reload or between instances', async () => {
    const started = await deliverer([subscription({ name: 'Folha' })]);
    await schedules(2);
    await receiver.until((posts) => posts.length === 2);
    await started.deliverTo([subscription({ name: 'FOLHA' })]);
    await schedules(1);
    await receiver.until((posts) => posts.length === 3);
    await deliverer([subscription({ name: 'folha' })], 'instance-b');
    await schedules(1);
    await receiver.until((posts) => posts.length === 4);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(idsOf(receiver.posts)).toEqual(sequence(1, 4));
  });

  it('goes on from the place a ledger kept under the name as written, before names were folded there', async () => {
    await schedules(3);
    // As a build that keyed the ledger by the name as written left it: 'Folha' delivered up to 2.
    const now = new Date();
    await ledger.claim('Folha', 'old-build', now, new Date(now.getTime() + 1));
    await ledger.advance('Folha', 'old-build', 2);
    await deliverer([subscription({ name: 'Folha' })]);
    await schedules(1);
    await receiver.until((posts) => posts.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(idsOf(receiver.posts)).toEqual(['3', '4']);
  });

  it('stops delivering a subscription no longer given, and starts one newly given', async () => {
    const other = await startReceiver();
    closing.push(() => other.close());
    const started = await deliverer();
    await schedules(1);
    await receiver.until((posts) => posts.length === 1);
    await started.deliverTo([subscription({ name: 'ponto', url: other.url })]);
    await schedules(1);
    await other.until((posts) => posts.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(idsOf(receiver.posts)).toEqual(['1']);
    expect(idsOf(other.posts)).toEqual(['1', '2']);
  });
});

/** A record as its JSON reads back. */
function json(record: object): unknown {
  return JSON.parse(JSON.stringify(record));
}

/** A clock a millisecond later at each reading, from `start`. */
function steppingClock(start: number): Clock {
  let now = start;
  return { now: () => new Date((now += 1)) };
}

/** Resolves once `ready` holds, looking every few milliseconds; fails after five seconds. */
async function until(ready: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error('the awaited state did not come in 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
