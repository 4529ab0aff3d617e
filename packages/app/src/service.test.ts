import { mkdtempSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fingerprintOf } from '@workplan/adapter-express';
import { openEventStream, send } from '@workplan/testing';
import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';
import { checkedKeySet } from './key-entries.js';
import { readKeyFile } from './key-source.js';
import { startService } from './service.js';

// The default storage, in a scratch file: never in the repository.
const base = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'workplan-service-')), 'workplan.db') };

async function keyFile(text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'workplan-keys-')), 'keys');
  await writeFile(path, text);
  return path;
}

describe('startService', () => {
  it('makes a key for the run when none is configured outside production, named dev in the history of what it writes', async () => {
    const service = await startService(parseConfig(base));
    try {
      expect(service.runKey).toMatch(/^[A-Za-z0-9_-]{32}$/u);
      const headers = { key: service.runKey ?? '' };
      const answer = await send(service.url, { path: '/api/v1/scales', headers });
      expect(answer.status).toBe(200);
      const created = await send(service.url, { method: 'POST', path: '/api/v1/scale', headers: { ...headers, 'content-type': 'application/json' }, body: '{"value":"12x36"}' });
      const id = (created.json as { data: { id: string } }).data.id;
      const history = await send(service.url, { path: `/api/v1/scale/${id}/history`, headers });
      expect((history.json as { data: { by: string }[] }).data.map((change) => change.by)).toEqual(['dev']);
    } finally {
      await service.close();
    }
  });

  it('refuses to start in production with no key', async () => {
    await expect(startService(parseConfig({ ...base, NODE_ENV: 'production' }))).rejects.toThrow('no API key configured');
  });

  it('accepts keys from API_KEYS and the key file together, and re-reads the file on demand', async () => {
    const path = await keyFile('# rotated monthly\nfile-key-0123456789ab\n\n');
    const service = await startService(parseConfig({ ...base, API_KEYS: 'env-key-0123456789abc', API_KEYS_FILE: path }));
    const status = async (key: string) => (await send(service.url, { path: '/api/v1/scales', headers: { key } })).status;
    try {
      expect([await status('env-key-0123456789abc'), await status('file-key-0123456789ab')]).toEqual([200, 200]);
      await writeFile(path, 'next-key-0123456789ab\n');
      await service.reloadKeys();
      expect([await status('file-key-0123456789ab'), await status('next-key-0123456789ab')]).toEqual([401, 200]);
      await writeFile(path, 'short\n');
      await expect(service.reloadKeys()).rejects.toThrow(`API_KEYS_FILE (${path}) line 1: the key is shorter than 16 characters`);
      expect(await status('next-key-0123456789ab')).toBe(200);
    } finally {
      await service.close();
    }
  });

  it('refuses a key file that names no key, at start and on a reload that would leave no key', async () => {
    const path = await keyFile('# nothing yet\n\n');
    const noKey = `API_KEYS_FILE (${path}) names no key: give one key a line, or leave it unset`;
    await expect(startService(parseConfig({ ...base, API_KEYS_FILE: path }))).rejects.toThrow(noKey);
    await expect(startService(parseConfig({ ...base, NODE_ENV: 'production', API_KEYS_FILE: path }))).rejects.toThrow(noKey);
    await writeFile(path, 'file-key-0123456789ab\n');
    const service = await startService(parseConfig({ ...base, API_KEYS_FILE: path }));
    const status = async (key: string) => (await send(service.url, { path: '/api/v1/scales', headers: { key } })).status;
    try {
      expect(service.runKey).toBeUndefined();
      await writeFile(path, '# every key revoked\n');
      await expect(service.reloadKeys()).rejects.toThrow(noKey);
      expect(await status('file-key-0123456789ab')).toBe(200);
    } finally {
      await service.close();
    }
  });

  it('takes a key file that names no key beside keys of API_KEYS: the file\'s keys alone were revoked', async () => {
    const path = await keyFile('file-key-0123456789ab\n');
    const service = await startService(parseConfig({ ...base, API_KEYS: 'env-key-0123456789abc', API_KEYS_FILE: path }));
    const status = async (key: string) => (await send(service.url, { path: '/api/v1/scales', headers: { key } })).status;
    try {
      await writeFile(path, '');
      await service.reloadKeys();
      expect([await status('env-key-0123456789abc'), await status('file-key-0123456789ab')]).toEqual([200, 401]);
    } finally {
      await service.close();
    }
  });
});

describe('startService with named keys and roles', () => {
  const write = (url: string, key: string) =>
    send(url, { method: 'POST', path: '/api/v1/costCenter', headers: { key, 'content-type': 'application/json' }, body: JSON.stringify({ title: `t ${Math.random()}` }) });

  it('refuses to start when the key file names a key as API_KEYS names another, naming both places', async () => {
    const path = await keyFile('# folha\nfile-key-0123456789ab name=folha\n');
    const config = parseConfig({ ...base, API_KEYS: 'env-key-0123456789abc name=Folha', API_KEYS_FILE: path });
    await expect(startService(config)).rejects.toThrow(
      `API_KEYS_FILE (${path}) line 2: the name "folha" is already used by API_KEYS entry 1 (names compare regardless of case): each key needs a name of its own`,
    );
  });

  it('gives a key its new role on reload, and keeps the old roles when the file turns bad', async () => {
    const key = 'role-key-0123456789ab';
    const path = await keyFile(`${key} name=Folha role=read\n`);
    const service = await startService(parseConfig({ ...base, API_KEYS_FILE: path }));
    try {
      expect((await write(service.url, key)).status).toBe(403);
      await writeFile(path, `${key} name=Folha\n`);
      await service.reloadKeys();
      expect((await write(service.url, key)).status).toBe(201);
      await writeFile(path, `${key} name=Folha role=read\nother-key-0123456789 name=Folha\n`);
      await expect(service.reloadKeys()).rejects.toThrow(`API_KEYS_FILE (${path}) line 2: the name "Folha" is already used by`);
      expect((await write(service.url, key)).status).toBe(201);
    } finally {
      await service.close();
    }
  });
});

describe('startService with followers of the changes', () => {
  it('closes at once though a long poll and an event stream are open: the poll answered, the stream ended', async () => {
    const key = 'follower-key-0123456789';
    const service = await startService(parseConfig({ ...base, STORAGE: 'memory', API_KEYS: key, SHUTDOWN_TIMEOUT_MS: '20000' }));
    const polling = send(service.url, { path: '/api/v1/changes?wait=30', headers: { key } });
    const stream = await openEventStream(service.url, '/api/v1/changes', { key });
    // Both held (the service's own count of them) before the close, however slow the machine.
    const held = async () => {
      const metrics = (await send(service.url, { path: '/metrics' })).text;
      return ['stream', 'poll'].every((kind) => metrics.includes(`workplan_changes_followers{kind="${kind}"} 1`));
    };
    await expect.poll(held, { timeout: 10_000 }).toBe(true);
    // Waiting for them, the close would last its 20 s shutdown timeout, past the test's own.
    await service.close();
    const answer = await polling;
    expect({ status: answer.status, data: (answer.json as { data: unknown }).data, connection: answer.headers.connection }).toEqual({
      status: 200,
      data: [],
      connection: 'close',
    });
    await stream.ended;
  });
});

describe('the named keys of docs/operations.md', () => {
  const page = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');

  it('has an example key file that reads as it says: names and roles in either order', async () => {
    const example = /A key file:\n\n```\n([^`]+)```/u.exec(page)?.[1] ?? '';
    const entries = checkedKeySet(await readKeyFile(await keyFile(example)));
    expect(entries.map(({ name, role }) => `${name}:${role}`)).toEqual(['Folha:read', 'RH:write', 'Ponto:read']);
  });

  it('has an API_KEYS example that parses', () => {
    const example = /`API_KEYS='([^']+)'`/u.exec(page)?.[1] ?? '';
    expect(parseConfig({ API_KEYS: example }).apiKeys.map(({ name, role }) => `${name}:${role}`)).toEqual(['Folha:read', 'RH:write']);
  });
});

describe('readKeyFile', () => {
  it('names the setting and the file when the file cannot be read', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'workplan-keys-')), 'missing.keys');
    await expect(readKeyFile(path)).rejects.toThrow(`API_KEYS_FILE (${path}) cannot be read: ENOENT`);
  });

  it('reads one entry a line, dropping comments and blanks, each named by its line', async () => {
    const path = await keyFile('alpha-key-0123456789 # the first\r\n# a comment\n\n  beta-key-0123456789ab  role=read name=Folha # read only\n');
    const entries = await readKeyFile(path);
    expect(entries.map(({ key, name, role, place }) => ({ key, name, role, place }))).toEqual([
      { key: 'alpha-key-0123456789', name: fingerprintOf('alpha-key-0123456789'), role: 'write', place: `API_KEYS_FILE (${path}) line 1` },
      { key: 'beta-key-0123456789ab', name: 'Folha', role: 'read', place: `API_KEYS_FILE (${path}) line 4` },
    ]);
  });
});
