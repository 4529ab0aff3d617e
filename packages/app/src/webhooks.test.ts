import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runApp, send, startReceiver, type WebhookReceiver } from '@workplan/testing';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';
import { startService, type RunningService } from './service.js';

const KEY = 'webhooks-key-0123456789';
const READ_KEY = 'webhooks-read-0123456789';
const base = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', STORAGE: 'memory', API_KEYS: `${KEY} name=RH,${READ_KEY} role=read` };
const secret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** A subscriptions file holding `subscriptions`, in a scratch folder. */
async function webhooksFile(subscriptions: readonly object[]): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'workplan-webhooks-')), 'webhooks.json');
  await writeFile(path, JSON.stringify({ subscriptions }));
  return path;
}

/** Creates a scale through the API; resolves its id. */
async function createScale(url: string, value: string): Promise<string> {
  const answer = await send(url, { method: 'POST', path: '/api/v1/scale', headers: { key: KEY, 'content-type': 'application/json' }, body: JSON.stringify({ value }) });
  expect(answer.status).toBe(201);
  return (answer.json as { data: { id: string } }).data.id;
}

describe('webhooks in the service', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const receiver = async (): Promise<WebhookReceiver> => {
    const started = await startReceiver();
    cleanups.push(() => started.close());
    return started;
  };
  const service = async (env: Record<string, string>): Promise<RunningService> => {
    const started = await startService(parseConfig({ ...base, ...env }));
    cleanups.push(() => started.close());
    return started;
  };

  it('POSTs each write to the subscriptions of WEBHOOKS_FILE, signed, and lists them at /api/v1/webhooks for any key', async () => {
    const folha = await receiver();
    const folhaSecret = secret();
    const file = await webhooksFile([{ name: 'folha', url: folha.url, secret: folhaSecret, resources: ['scale'] }]);
    const running = await service({ WEBHOOKS_FILE: file });
    const id = await createScale(running.url, '12x36');
    await folha.until((posts) => posts.length === 1);
    const [post] = folha.posts;
    expect(new Webhook(folhaSecret).verify(post?.body ?? '', post?.headers as Record<string, string>)).toMatchObject({
      id: '1',
      resource: 'scale',
      recordId: id,
      action: 'create',
      by: 'RH',
      previous: null,
    });
    // Byte for byte the change as the changes feed writes it.
    const feed = await send(running.url, { path: '/api/v1/changes', headers: { key: READ_KEY } });
    expect(feed.text).toContain(post?.body);

    const listed = await send(running.url, { path: '/api/v1/webhooks', headers: { key: READ_KEY } });
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual({
      success: true,
      data: [
        {
          name: 'folha',
          url: folha.url,
          resources: ['scale'],
          cursor: '1',
          lagChanges: 0,
          lagSeconds: 0,
          lastError: null,
          failingSince: null,
          nextAttempt: null,
          failing: false,
        },
      ],
    });
    expect(listed.text).not.toContain(folhaSecret.slice('whsec_'.length));
    expect((await send(running.url, { path: '/api/v1/webhooks' })).json).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });

    const metrics = (await send(running.url, { path: '/metrics' })).text;
    expect(metrics).toMatch(/^workplan_webhook_deliveries_total\{subscription="folha",outcome="acknowledged"\} 1$/mu);
    expect(metrics).toMatch(/^workplan_webhook_lag_changes\{subscription="folha"\} 0$/mu);
    expect(metrics).toMatch(/^workplan_webhook_lag_seconds\{subscription="folha"\} 0$/mu);
  });

  it('shows a read key each URL without its user-info, query and fragment, and a write key each URL whole', async () => {
    const folha = await receiver();
    const receiving = new URL(folha.url);
    const url = `${receiving.protocol}//recebedor:s3nha@${receiving.host}/entrada?token=t0ken-da-folha&lote=1#parte`;
    const file = await webhooksFile([{ name: 'folha', url, secret: secret() }]);
    const running = await service({ WEBHOOKS_FILE: file });
    const urlSeenBy = async (key: string) => {
      const listed = await send(running.url, { path: '/api/v1/webhooks', headers: { key } });
      expect(listed.text).not.toContain('whsec_');
      return (listed.json as { data: { url: string }[] }).data.map((subscription) => subscription.url);
    };
    expect(await urlSeenBy(READ_KEY)).toEqual([`${receiving.protocol}//${receiving.host}/entrada`]);
    expect(await urlSeenBy(KEY)).toEqual([url]);
  });

  it('stops within SHUTDOWN_TIMEOUT_MS while a receiver hangs', async () => {
    const hanging = await receiver();
    hanging.answerWith(() => 'hang');
    const file = await webhooksFile([{ name: 'folha', url: hanging.url, secret: secret() }]);
    const running = await startService(parseConfig({ ...base, WEBHOOKS_FILE: file, SHUTDOWN_TIMEOUT_MS: '300' }));
    await createScale(running.url, 'turno A');
    await hanging.until((posts) => posts.length === 1);
    // Waiting for the receiver, the close would outlast the test.
    await running.close();
  });

  it('lists no subscription without WEBHOOKS_FILE', async () => {
    const running = await service({});
    expect((await send(running.url, { path: '/api/v1/webhooks', headers: { key: KEY } })).json).toEqual({ success: true, data: [] });
  });

  it('refuses to start on a subscriptions file with a mistake, in a line naming it', async () => {
    const file = await webhooksFile([{ name: 'folha', url: 'https://folha.example/', secret: 'whsec_curto' }]);
    await expect(startService(parseConfig({ ...base, WEBHOOKS_FILE: file }))).rejects.toThrow(
      `WEBHOOKS_FILE (${file}): subscription 1 ("folha"): secret must be "whsec_" followed by the base64 of 24 to 64 random bytes`,
    );
  });

  it('delivers on SQLite, keeping the cursor in the file', async () => {
    const folha = await receiver();
    const file = await webhooksFile([{ name: 'folha', url: folha.url, secret: secret() }]);
    const sqlitePath = join(mkdtempSync(join(tmpdir(), 'workplan-webhooks-db-')), 'workplan.db');
    const running = await service({ STORAGE: 'sqlite', SQLITE_PATH: sqlitePath, WEBHOOKS_FILE: file });
    await createScale(running.url, 'turno A');
    await createScale(running.url, 'turno B');
    await folha.until((posts) => posts.length === 2);
    const listed = async (): Promise<unknown> => (await send(running.url, { path: '/api/v1/webhooks', headers: { key: READ_KEY } })).json;
    await expect.poll(listed).toMatchObject({ data: [{ name: 'folha', cursor: '2', lagChanges: 0 }] });
  });

  it('delivers to the subscriptions of the file as re-read, and keeps the old ones when it no longer reads', async () => {
    const folha = await receiver();
    const ponto = await receiver();
    const file = await webhooksFile([{ name: 'folha', url: folha.url, secret: secret() }]);
    const running = await service({ WEBHOOKS_FILE: file });
    await createScale(running.url, 'turno A');
    await folha.until((posts) => posts.length === 1);

    await writeFile(file, JSON.stringify({ subscriptions: [{ name: 'ponto', url: ponto.url, secret: secret() }] }));
    expect(await running.reloadWebhooks()).toBe(1);
    await createScale(running.url, 'turno B');
    await ponto.until((posts) => posts.length === 2);
    expect(folha.posts).toHaveLength(1);

    await writeFile(file, '{"subscriptions": [{"name": "ponto"}');
    await expect(running.reloadWebhooks()).rejects.toThrow(`WEBHOOKS_FILE (${file}) is not JSON`);
    await createScale(running.url, 'turno C');
    await ponto.until((posts) => posts.length === 3);
  });
});

describe('webhooks in the process', () => {
  // The built entry point, as `pnpm start` runs it (`pnpm test` builds first).
  const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
  const run = (env: Record<string, string>) => runApp(main, { ...base, LOG_LEVEL: 'info', ...env }, { cwd: mkdtempSync(join(tmpdir(), 'workplan-main-')) });

  it('re-reads WEBHOOKS_FILE on SIGHUP, saying so in a line, and keeps the old subscriptions when it turns bad', { timeout: 30_000 }, async () => {
    const folha = await startReceiver();
    const ponto = await startReceiver();
    try {
      const file = await webhooksFile([{ name: 'folha', url: folha.url, secret: secret() }]);
      const app = run({ WEBHOOKS_FILE: file, NODE_ENV: 'development' });
      const url = await app.listening();
      await createScale(url, 'turno A');
      await folha.until((posts) => posts.length === 1);

      await writeFile(file, JSON.stringify({ subscriptions: [{ name: 'ponto', url: ponto.url, secret: secret() }] }));
      app.child.kill('SIGHUP');
      await app.printed(/webhooks reloaded: 1 subscription\(s\)/u);
      await createScale(url, 'turno B');
      await ponto.until((posts) => posts.length === 2);

      await writeFile(file, JSON.stringify({ subscriptions: [{ name: 'ponto', url: 'ftp://ponto.example/', secret: secret() }] }));
      app.child.kill('SIGHUP');
      // A JSON line, where the quotes around the name are escaped.
      await app.printed(/webhooks not reloaded, keeping the old subscriptions: WEBHOOKS_FILE \([^)]+\): subscription 1 \(\\"ponto\\"\): url must be an http or https URL/u);
      await createScale(url, 'turno C');
      await ponto.until((posts) => posts.length === 3);
      expect(folha.posts).toHaveLength(1);
      app.child.kill('SIGTERM');
      expect((await app.exited)[0]).toBe(0);
    } finally {
      await Promise.all([folha.close(), ponto.close()]);
    }
  });

  it('does not start on a bad subscriptions file, printing the line that names the mistake', { timeout: 30_000 }, async () => {
    const file = await webhooksFile([{ name: 'folha', url: 'https://folha.example/', secret: secret(), retries: 3 }]);
    const app = run({ WEBHOOKS_FILE: file });
    expect((await app.exited)[0]).toBe(1);
    expect(app.output()).toContain(`workplan did not start: WEBHOOKS_FILE (${file}): subscription 1 ("folha"): unknown member "retries"`);
  });
});
