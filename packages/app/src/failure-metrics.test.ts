import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEventStream, send, startReceiver } from '@workplan/testing';
import { type SubscriptionStatus } from '@workplan/webhooks';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from './config.js';
import { startService, type RunningService } from './service.js';
import { WebhookMetrics } from './webhook-metrics.js';

const KEY = 'failure-metrics-key-0123456789';
const base = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', API_KEYS: KEY };

/** The value of the one sample of `/metrics` named `series` (name and labels as written), or undefined when there is none. */
function sample(metrics: string, series: string): number | undefined {
  const line = metrics.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(running: RunningService): Promise<string> {
  const answer = await send(running.url, { path: '/metrics' });
  expect(answer.status).toBe(200);
  return answer.text;
}

async function scratch(name: string): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'workplan-failure-metrics-')), name);
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; tries < 100; tries += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never: ${what}`);
}

const status = (name: string, failure: Partial<SubscriptionStatus>): SubscriptionStatus => ({
  name,
  url: 'http://127.0.0.1:9/hooks',
  resources: ['scale'],
  cursor: '0',
  lagChanges: 0,
  lagSeconds: 0,
  lastError: null,
  failingSince: null,
  nextAttempt: null,
  failing: false,
  ...failure,
});

describe('the metrics of what goes wrong', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const service = async (environment: Record<string, string>): Promise<RunningService> => {
    const running = await startService(parseConfig({ ...base, ...environment }));
    cleanups.push(() => running.close());
    return running;
  };

  it('says per webhook subscription whether it is marked failing and for how long its attempts have failed, from one status read a scrape', async () => {
    const registry = new Registry();
    const now = Date.now();
    let reads = 0;
    new WebhookMetrics(registry, () => {
      reads += 1;
      return Promise.resolve([
        status('folha', { failing: true, failingSince: new Date(now - 90_000), lastError: 'HTTP 503' }),
        status('ponto', { failingSince: new Date(now - 30_000), lastError: 'timeout' }),
        status('rh', {}),
      ]);
    });
    // Scraped on a clock that stands at `now`: the seconds are the metric's arithmetic, not the time the scrape took.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    const metrics = await registry.metrics().finally(() => vi.useRealTimers());
    expect(sample(metrics, 'workplan_webhook_failing{subscription="folha"}')).toBe(1);
    expect(sample(metrics, 'workplan_webhook_failing{subscription="ponto"}')).toBe(0);
    expect(sample(metrics, 'workplan_webhook_failing{subscription="rh"}')).toBe(0);
    expect(sample(metrics, 'workplan_webhook_failing_seconds{subscription="folha"}')).toBe(90);
    expect(sample(metrics, 'workplan_webhook_failing_seconds{subscription="ponto"}')).toBe(30);
    expect(sample(metrics, 'workplan_webhook_failing_seconds{subscription="rh"}')).toBe(0);
    expect(reads).toBe(1);
  });

  it('shows a subscription whose receiver answers 503 as failing for some seconds, not yet marked failing', async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    receiver.answerWith(() => ({ status: 503 }));
    const file = await scratch('webhooks.json');
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    await writeFile(file, JSON.stringify({ subscriptions: [{ name: 'folha', url: receiver.url, secret }] }));
    const running = await service({ STORAGE: 'memory', WEBHOOKS_FILE: file });
    const created = await send(running.url, { method: 'POST', path: '/api/v1/scale', headers: { key: KEY, 'content-type': 'application/json' }, body: '{"value":"12x36"}' });
    expect(created.status).toBe(201);
    await receiver.until((posts) => posts.length >= 1);
    await until(async () => sample(await scrape(running), 'workplan_webhook_failing_seconds{subscription="folha"}') !== 0, 'a failing time');
    const metrics = await scrape(running);
    expect(sample(metrics, 'workplan_webhook_failing_seconds{subscription="folha"}')).toBeGreaterThan(0);
    expect(sample(metrics, 'workplan_webhook_failing{subscription="folha"}')).toBe(0);
    expect(sample(metrics, 'workplan_webhook_lag_changes{subscription="folha"}')).toBe(1);
  });

  it('counts the reloads of API_KEYS_FILE and WEBHOOKS_FILE that failed, and none that succeeded', async () => {
    const keys = await scratch('api_keys.txt');
    await writeFile(keys, `${KEY}\n`);
    const webhooks = await scratch('webhooks.json');
    await writeFile(webhooks, JSON.stringify({ subscriptions: [] }));
    const running = await service({ STORAGE: 'memory', API_KEYS: '', API_KEYS_FILE: keys, WEBHOOKS_FILE: webhooks });
    await running.reloadKeys();
    await running.reloadWebhooks();
    let metrics = await scrape(running);
    expect(sample(metrics, 'workplan_reload_failures_total{file="API_KEYS_FILE"}')).toBe(0);
    expect(sample(metrics, 'workplan_reload_failures_total{file="WEBHOOKS_FILE"}')).toBe(0);

    await writeFile(keys, `${KEY} role=admin\n`);
    await expect(running.reloadKeys()).rejects.toThrow(/role must be read or write/u);
    await writeFile(keys, '# no key left\n');
    await expect(running.reloadKeys()).rejects.toThrow();
    await writeFile(webhooks, '{ not json');
    await expect(running.reloadWebhooks()).rejects.toThrow();
    metrics = await scrape(running);
    expect(sample(metrics, 'workplan_reload_failures_total{file="API_KEYS_FILE"}')).toBe(2);
    expect(sample(metrics, 'workplan_reload_failures_total{file="WEBHOOKS_FILE"}')).toBe(1);
    // The old key still serves.
    expect((await send(running.url, { path: '/api/v1/scales', headers: { key: KEY } })).status).toBe(200);
  });

  it('counts the followers of the changes held open, event streams and long polls, until they leave', async () => {
    const running = await service({ STORAGE: 'memory' });
    let metrics = await scrape(running);
    expect(sample(metrics, 'workplan_changes_followers{kind="stream"}')).toBe(0);
    expect(sample(metrics, 'workplan_changes_followers{kind="poll"}')).toBe(0);
    // A page without `wait` is answered at once and holds nothing.
    expect((await send(running.url, { path: '/api/v1/changes', headers: { key: KEY } })).status).toBe(200);

    const streams = await Promise.all([1, 2].map(() => openEventStream(running.url, '/api/v1/changes', { key: KEY })));
    const poll = request(`${running.url}/api/v1/changes?wait=30`, { headers: { key: KEY }, agent: false });
    poll.on('error', () => undefined);
    poll.end();
    await until(async () => sample(await scrape(running), 'workplan_changes_followers{kind="poll"}') === 1, 'a long poll held');
    metrics = await scrape(running);
    expect(sample(metrics, 'workplan_changes_followers{kind="stream"}')).toBe(2);

    for (const stream of streams) stream.close();
    poll.destroy();
    await until(async () => {
      const now = await scrape(running);
      return sample(now, 'workplan_changes_followers{kind="stream"}') === 0 && sample(now, 'workplan_changes_followers{kind="poll"}') === 0;
    }, 'the followers let go');
  });

  it('gives the sizes of the SQLite file and its -wal at each scrape, and says whether the service is ready', async () => {
    const file = await scratch('workplan.db');
    const running = await service({ STORAGE: 'sqlite', SQLITE_PATH: file });
    for (let index = 0; index < 20; index += 1) {
      const created = await send(running.url, { method: 'POST', path: '/api/v1/costCenter', headers: { key: KEY, 'content-type': 'application/json' }, body: JSON.stringify({ title: `Centro ${index}` }) });
      expect(created.status, created.text).toBe(201);
    }
    const metrics = await scrape(running);
    expect(sample(metrics, 'workplan_sqlite_file_bytes')).toBe(statSync(file).size);
    expect(sample(metrics, 'workplan_sqlite_wal_bytes')).toBe(statSync(`${file}-wal`).size);
    expect(sample(metrics, 'workplan_sqlite_wal_bytes')).toBeGreaterThan(0);
    expect(sample(metrics, 'workplan_ready')).toBe(1);

    // The file gone from its path: not ready, and its size not a number rather than a stale figure.
    await rm(file);
    await until(async () => (await send(running.url, { path: '/health/ready' })).status === 503, 'not ready');
    const gone = await scrape(running);
    expect(sample(gone, 'workplan_ready')).toBe(0);
    expect(sample(gone, 'workplan_sqlite_file_bytes')).toBeNaN();
  });

  it('has no SQLite sizes on another storage', async () => {
    const running = await service({ STORAGE: 'memory' });
    const metrics = await scrape(running);
    expect(metrics).not.toContain('workplan_sqlite_');
    expect(sample(metrics, 'workplan_ready')).toBe(1);
  });
});
