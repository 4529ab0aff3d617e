import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describeWithTestDatabase } from '@workplan/testing/mongodb';
import { send, uniqueText, untilReady } from '@workplan/testing';
import { MongoClient } from 'mongodb';
import { expect, it } from 'vitest';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const key = 'drain-test-key-0123456789';

await describeWithTestDatabase('the app binary on MongoDB', (database) => {
  it('drains requests in flight on SIGTERM, closes the client, exits 0, and loses nothing acknowledged', async () => {
    const env = { PATH: process.env.PATH ?? '', PORT: '0', API_KEYS: key, STORAGE: 'mongodb', MONGODB_URI: database.uri };
    const child = spawn(process.execPath, [main], { env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(child, 'exit') as Promise<[number | null]>;
    while (!/listening on (http:\S+)/u.test(output)) await new Promise((resolve) => setTimeout(resolve, 20));
    const url = /listening on (http:\S+)/u.exec(output)?.[1] ?? '';
    await untilReady(url);

    const headers = { key, 'content-type': 'application/json' };
    const creates = Array.from({ length: 30 }, () =>
      send(url, { method: 'POST', path: '/api/v1/costCenter', headers, body: JSON.stringify({ title: uniqueText() }) })
        .then((answer) => answer)
        .catch(() => undefined), // A connection refused after the close is not an acknowledgement.
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill('SIGTERM');
    const answers = await Promise.all(creates);
    const [code] = await exited;
    expect(code).toBe(0);

    const acknowledged = answers.filter((a) => a?.status === 201).map((a) => (a?.json as { data: { id: string } }).data.id);
    expect(answers.every((a) => a === undefined || a.status === 201)).toBe(true);
    const client = await MongoClient.connect(database.uri);
    try {
      const stored = await client.db().collection('costCenters').countDocuments();
      expect(stored).toBe(acknowledged.length);
    } finally {
      await client.close();
    }
  });
});
