import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runApp } from '@workplan/testing';
import { MongoClient, MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeFailure, redactCredentials } from './mongo-failure.js';

describe('redactCredentials', () => {
  it('hides the password of every connection string, keeping the user and hosts', () => {
    expect(redactCredentials('failed on mongodb://workplan:s3cr%2Ft@mongo:27017/db and mongodb+srv://a:b@c/d')).toBe(
      'failed on mongodb://workplan:***@mongo:27017/db and mongodb+srv://a:***@c/d',
    );
    expect(redactCredentials('mongodb://mongo:27017/db, port 27017: refused')).toBe('mongodb://mongo:27017/db, port 27017: refused');
  });
});

describe('describeFailure', () => {
  it('gives the code, code name and message of a server error', () => {
    const refused = new MongoServerError({ message: 'Authentication failed.', code: 18, codeName: 'AuthenticationFailed' });
    expect(describeFailure(refused)).toEqual([
      { name: 'MongoServerError', code: 18, codeName: 'AuthenticationFailed', message: 'Authentication failed.' },
    ]);
  });

  it('follows the causes down to the system error of a server that does not answer', async () => {
    const client = new MongoClient('mongodb://workplan:do-not-log-me@127.0.0.1:1/workplan', { serverSelectionTimeoutMS: 300 });
    const error = await client.db().command({ ping: 1 }).catch((failure: unknown) => failure);
    await client.close();
    const chain = describeFailure(error);
    expect(chain[0]?.name).toBe('MongoServerSelectionError');
    expect(chain.some((link) => link.code === 'ECONNREFUSED' || /ECONNREFUSED/u.test(link.message))).toBe(true);
    expect(JSON.stringify(chain)).not.toContain('do-not-log-me');
  });

  it('describes what is not an Error by its text', () => {
    expect(describeFailure('mongodb://u:p@h/ down')).toEqual([{ name: 'string', message: 'mongodb://u:***@h/ down' }]);
  });
});

describe('the app on a MongoDB it cannot reach', () => {
  it('logs why, with the code and message of the cause and never the password, as it retries', async () => {
    const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
    const app = runApp(
      main,
      {
        PORT: '0',
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        API_KEYS: 'unreachable-key-0123456789',
        STORAGE: 'mongodb',
        MONGODB_URI: 'mongodb://workplan:do-not-log-me@127.0.0.1:1/workplan',
        MONGODB_TIMEOUT_MS: '200',
      },
      { cwd: mkdtempSync(join(tmpdir(), 'workplan-unreachable-')) },
    );
    try {
      const [line = ''] = await app.printed(/\{[^\n]*MongoDB not reachable[^\n]*\}\n/u);
      const logged = JSON.parse(line) as { level: number; msg: string; cause: { name: string; code?: string; message: string }[] };
      expect(logged.level).toBe(40);
      const selection = logged.cause.find((link) => link.name === 'MongoServerSelectionError');
      expect(selection?.message).toContain('ECONNREFUSED 127.0.0.1:1');
      expect(logged.cause.at(-1)).toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await app.stop();
    }
    expect(app.output()).not.toContain('do-not-log-me');
  });
});
