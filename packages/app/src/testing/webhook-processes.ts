import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runApp, send, startReceiver, untilReady, type AppProcess, type ReceivedPost, type WebhookReceiver } from '@workplan/testing';
import { Webhook } from 'standardwebhooks';
import { afterEach, expect, it } from 'vitest';

// Test-only (left out of the build): webhooks delivered by real app processes over one
// storage, across kill -9 and instances; each storage's test file runs these scenarios.

const KEY = 'webhooks-processes-0123456789';
// The built entry point, as `pnpm start` runs it (`pnpm test` builds first).
const main = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
// A short lease, so that a takeover comes within seconds; an attempt gets a third of it.
const LEASE_SECONDS = 5;
// After a kill -9 the lease runs out, then a claim comes within a third of it; the rest is
// room for a slow machine, though less than the default lease: a takeover proves the setting.
const TAKEOVER_MS = 3 * LEASE_SECONDS * 1000;
// A lease longer than a scenario's timeout: taken over at all, it was given up, not run out.
const LEASE_OUTLASTING_TEST_SECONDS = 120;

const upTo = (last: number): string[] => Array.from({ length: last }, (_, i) => String(i + 1));

/** One subscription, `folha`, over a fresh storage: the instances' settings, and the ids of the POSTs its secret verifies. */
interface Subscription {
  readonly env: Record<string, string>;
  readonly idsOf: (posts: readonly ReceivedPost[]) => string[];
}

/**
 * The process scenarios of webhooks over the storage `storageEnv` names (a fresh file or
 * database at each call): two instances taking turns, and kill -9 mid-delivery with a
 * takeover by the other instance or by a restart, to a receiver that was down meanwhile.
 */
export function webhookProcessScenarios(storageEnv: () => Promise<Record<string, string>>): void {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  }, 30_000);

  async function subscriptionTo(receiver: WebhookReceiver): Promise<Subscription> {
    const file = join(mkdtempSync(join(tmpdir(), 'workplan-webhook-processes-')), 'webhooks.json');
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    await writeFile(file, JSON.stringify({ subscriptions: [{ name: 'folha', url: receiver.url, secret }] }));
    const verifier = new Webhook(secret);
    return {
      env: { ...(await storageEnv()), WEBHOOKS_FILE: file, WEBHOOKS_LEASE_SECONDS: String(LEASE_SECONDS) },
      // `verify` throws on a bad signature; the change's id is the POST's `webhook-id`.
      idsOf: (posts) => posts.map((post) => (verifier.verify(post.body, post.headers as Record<string, string>) as { id: string }).id),
    };
  }

  async function instance(env: Record<string, string>): Promise<{ app: AppProcess; url: string }> {
    const app = runApp(main, { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', API_KEYS: KEY, ...env }, { cwd: mkdtempSync(join(tmpdir(), 'workplan-main-')) });
    cleanups.push(async () => {
      if (app.child.exitCode === null && app.child.signalCode === null) await app.stop();
    });
    const url = await app.listening();
    await untilReady(url);
    return { app, url };
  }

  /** A receiver closed after the test, unless the test closed it (`close` is for once only). */
  async function receiver(port?: number): Promise<WebhookReceiver> {
    const started = await startReceiver(port);
    let closing: Promise<void> | undefined;
    const close = (): Promise<void> => (closing ??= started.close());
    cleanups.push(close);
    return { ...started, close, get posts() { return started.posts; }, get peakInFlight() { return started.peakInFlight; } };
  }

  async function createScales(url: string, values: readonly string[]): Promise<void> {
    for (const value of values) {
      const answer = await send(url, { method: 'POST', path: '/api/v1/scale', headers: { key: KEY, 'content-type': 'application/json' }, body: JSON.stringify({ value }) });
      expect(answer.status).toBe(201);
    }
  }

  async function kill(app: AppProcess): Promise<void> {
    app.child.kill('SIGKILL');
    await app.exited;
  }

  it('has one of two instances deliver a subscription: each change once, in order, whichever instance took the write', { timeout: 60_000 }, async () => {
    const folha = await receiver();
    const { env, idsOf } = await subscriptionTo(folha);
    const instances = [await instance(env), await instance(env)];
    for (let i = 1; i <= 6; i += 1) await createScales(instances[i % 2]?.url ?? '', [`turno ${i}`]);
    await folha.until((posts) => posts.length >= 6, TAKEOVER_MS);
    // Longer than a delivery takes, for a duplicate from the other instance to come.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(idsOf(folha.posts)).toEqual(upTo(6));
    for (const { url } of instances) {
      const listed = await send(url, { path: '/api/v1/webhooks', headers: { key: KEY } });
      expect(listed.json).toMatchObject({ success: true, data: [{ name: 'folha', cursor: '6', lagChanges: 0, failing: false }] });
    }
  });

  it('has the other instance take over from one killed mid-delivery: nothing lost, order kept, only the change in flight sent twice', { timeout: 60_000 }, async () => {
    const folha = await receiver();
    const { env, idsOf } = await subscriptionTo(folha);
    const a = await instance(env);
    await createScales(a.url, ['turno 1']);
    // A delivers change 1, so it holds the lease before B starts.
    await folha.until((posts) => posts.length === 1);
    const b = await instance(env);
    folha.answerWith((_, index) => (index === 2 ? 'hang' : { status: 204 }));
    await createScales(a.url, ['turno 2', 'turno 3', 'turno 4']);
    await folha.until((posts) => posts.length === 3);
    await kill(a.app);
    await createScales(b.url, ['turno 5', 'turno 6']);
    await folha.until((posts) => idsOf(posts).at(-1) === '6', TAKEOVER_MS);
    expect(idsOf(folha.posts)).toEqual(['1', '2', '3', '3', '4', '5', '6']);
    await createScales(b.url, ['turno 7']);
    await folha.until((posts) => posts.length === 8);
    expect(idsOf(folha.posts).at(-1)).toBe('7');
  });

  it('has the other instance take over at once from one stopped mid-delivery, the change acknowledged during the stop sent once', { timeout: 60_000 }, async () => {
    const folha = await receiver();
    const { env, idsOf } = await subscriptionTo(folha);
    // A's lease outlasts the test: B can take over only if A gave it up (B claims within a third of its own).
    const a = await instance({ ...env, SHUTDOWN_TIMEOUT_MS: '4000', WEBHOOKS_LEASE_SECONDS: String(LEASE_OUTLASTING_TEST_SECONDS) });
    await createScales(a.url, ['turno 1']);
    // A delivers change 1, so it holds the lease before B starts.
    await folha.until((posts) => posts.length === 1);
    const b = await instance(env);
    // Change 2 is acknowledged a second after it arrives: after A was told to stop.
    folha.answerWith((_, index) => (index === 1 ? { status: 204, delayMs: 1000 } : { status: 204 }));
    await createScales(a.url, ['turno 2']);
    await folha.until((posts) => posts.length === 2);
    expect(await a.app.stop()).toBe(0);
    await createScales(b.url, ['turno 3']);
    await folha.until((posts) => posts.length >= 3, TAKEOVER_MS);
    // Longer than a delivery takes, for a duplicate to come.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(idsOf(folha.posts)).toEqual(['1', '2', '3']);
  });

  it('resumes after a kill -9 mid-delivery and a restart, to a receiver that was down meanwhile and came back', { timeout: 60_000 }, async () => {
    const first = await receiver();
    first.answerWith(() => 'hang');
    const { env, idsOf } = await subscriptionTo(first);
    const before = await instance(env);
    await createScales(before.url, ['turno 1', 'turno 2']);
    await first.until((posts) => posts.length === 1);
    await kill(before.app);
    await first.close();

    const after = await instance(env);
    await createScales(after.url, ['turno 3']);
    // The restart takes the lease once the killed one's ran out, and finds the receiver down.
    await after.app.printed(/webhook folha: change 1 not delivered \(connection failed: ECONNREFUSED\)/u);
    const back = await receiver(first.port);
    await back.until((posts) => posts.length === 3, TAKEOVER_MS);
    expect([...idsOf(first.posts), ...idsOf(back.posts)]).toEqual(['1', '1', '2', '3']);
    await createScales(after.url, ['turno 4']);
    await back.until((posts) => posts.length === 4);
    expect(idsOf(back.posts)).toEqual(['1', '2', '3', '4']);
  });
}
