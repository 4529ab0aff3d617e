import { mkdtempSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openEventStream, runApp, send } from '@workplan/testing';
import { describe, expect, it } from 'vitest';

// The built entry point, as `pnpm start` runs it (`pnpm test` builds first).
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));

const leaked = 'leaked-read-key-0123456789';
const kept = 'kept-write-key-0123456789';

describe('a key rotated out of API_KEYS_FILE (SIGHUP)', () => {
  it('ends the event streams and long polls it holds at once: the poll answered 401, the stream closed after saying why', { timeout: 30_000 }, async () => {
    const directory = mkdtempSync(join(tmpdir(), 'workplan-rotation-'));
    const file = join(directory, 'keys');
    await writeFile(file, `${leaked} name=Folha role=read\n${kept} name=Ponto\n`);
    const app = runApp(main, { PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production', API_KEYS_FILE: file, LOG_LEVEL: 'silent' }, { cwd: directory });
    try {
      const url = await app.listening();
      const create = (value: string) =>
        send(url, { method: 'POST', path: '/api/v1/scale', headers: { key: kept, 'content-type': 'application/json' }, body: JSON.stringify({ value }) });
      await create('antes');
      const leakedStream = await openEventStream(url, '/api/v1/changes', { key: leaked });
      const keptStream = await openEventStream(url, '/api/v1/changes', { key: kept });
      expect((await leakedStream.events(1)).map((event) => event.id)).toEqual(['1']);
      expect((await keptStream.events(1)).map((event) => event.id)).toEqual(['1']);
      const leakedPoll = send(url, { path: '/api/v1/changes?after=1&wait=30', headers: { key: leaked } });
      const keptPoll = send(url, { path: '/api/v1/changes?after=1&wait=30', headers: { key: kept } });
      // Both polls held (the app's own count of them), however slow the machine, before the keys change.
      const polls = async () => (await send(url, { path: '/metrics' })).text.includes('workplan_changes_followers{kind="poll"} 2');
      await expect.poll(polls, { timeout: 10_000 }).toBe(true);

      await writeFile(file, `${kept} name=Ponto\n`);
      app.child.kill('SIGHUP');
      await app.printed(/keys reloaded: 1 key\(s\)/u);
      const refused = await leakedPoll;
      expect({ status: refused.status, body: refused.json }).toEqual({
        status: 401,
        body: {
          success: false,
          message: 'Não foi possível retornar as alterações.',
          error: { code: 'UNAUTHORIZED', detail: 'Chave de API ausente ou inválida.', requestId: refused.headers['x-request-id'] },
        },
      });
      const [why] = await leakedStream.events(1);
      await leakedStream.ended;
      const problem = JSON.parse(why?.data ?? '{}') as { error?: { code: string } };
      expect({ event: why?.event, code: problem.error?.code }).toEqual({ event: 'problem', code: 'UNAUTHORIZED' });

      await create('depois');
      expect((await keptStream.events(1)).map((event) => event.id)).toEqual(['2']);
      expect((await keptPoll).status).toBe(200);
      expect(await leakedStream.text).not.toContain('depois');
      expect((await send(url, { path: '/api/v1/changes', headers: { key: leaked } })).status).toBe(401);
      keptStream.close();
    } finally {
      await app.stop();
    }
  });
});

describe('a run without configured keys', () => {
  it('keeps its run key on SIGHUP: there is no key file to read again', { timeout: 30_000 }, async () => {
    const directory = mkdtempSync(join(tmpdir(), 'workplan-run-key-'));
    const app = runApp(main, { PORT: '0', HOST: '127.0.0.1' }, { cwd: directory });
    try {
      const url = await app.listening();
      const [, key = ''] = await app.printed(/KEY: (\S+)/u);
      app.child.kill('SIGHUP');
      await app.printed(/keys reloaded/u);
      expect((await send(url, { path: '/api/v1/scales', headers: { key } })).status).toBe(200);
    } finally {
      await app.stop();
    }
  });
});
