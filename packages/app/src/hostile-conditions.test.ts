import { clearOfMinuteEnd, expectProblem, send, storedRecords } from '@workplan/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';
import { startService, type RunningService } from './service.js';

// A test that waits out the end of a minute gives itself that wait on top of its own time.
const MINUTE_CLEARANCE_MS = 10_000;

// Hostile conditions of issue 12 that the service meets in this process, on the memory store.

const key = 'conditions-key-0123456789';
const createScale = 'Não foi possível criar a escala de trabalho.';

let service: RunningService | undefined;

async function serve(env: Record<string, string> = {}): Promise<string> {
  service = await startService(
    parseConfig({ PORT: '0', HOST: '127.0.0.1', API_KEYS: key, STORAGE: 'memory', LOG_LEVEL: 'silent', ...env }),
  );
  return service.url;
}

afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('hostile conditions, round 2', () => {
  it('hostile 11: a body with invalid UTF-8 is 400 INVALID_JSON and stores nothing', async () => {
    const url = await serve();
    const before = await storedRecords(url, key);
    // A lone continuation byte, a truncated sequence, an overlong slash and a UTF-16 surrogate.
    for (const bad of [[0x80], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80]]) {
      const body = Buffer.concat([Buffer.from('{"value":"a'), Buffer.from(bad), Buffer.from('b"}')]);
      const headers = { key, 'content-type': 'application/json' };
      const answer = await send(url, { method: 'POST', path: '/api/v1/scale', headers, body });
      expectProblem(answer, 400, 'INVALID_JSON', createScale);
    }
    expect(await storedRecords(url, key)).toBe(before);
  });

  it('hostile 5: failed key attempts from an address never lock out a valid key from that address', async () => {
    const url = await serve({ RATE_LIMIT_PER_MINUTE: '60' });
    // The counts are of a minute of the clock: all of this must fall in one.
    await clearOfMinuteEnd(MINUTE_CLEARANCE_MS);
    const list = (sent: string) => send(url, { path: '/api/v1/scales', headers: { key: sent } });
    for (let n = 1; n <= 60; n += 1) expect((await list('wrong-key-0123456789')).status).toBe(401);
    expect((await list('wrong-key-0123456789')).status).toBe(429);
    expect((await list(key)).status).toBe(200);
    // The valid key is limited by its own count alone: 59 more make 60, the next is refused.
    for (let n = 2; n <= 60; n += 1) expect((await list(key)).status).toBe(200);
    expect((await list(key)).status).toBe(429);
  }, MINUTE_CLEARANCE_MS + 10_000);
});
