import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { send, startReceiver, untilReady } from '@workplan/testing';
import { describeWithTestDatabase } from '@workplan/testing/mongodb';
import { expect, it } from 'vitest';
import { parseConfig } from './config.js';
import { startService, type RunningService } from './service.js';

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
});
