import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectProblem, openEventStream, runApp, send, type EventStream, type HttpAnswer } from '@workplan/testing';
import { describe, expect, it } from 'vitest';

// The built entry point, as `pnpm start` runs it (`pnpm test` builds first).
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));

const payroll = 'payroll-read-key-0123456789';
const clock = 'clock-read-key-01234567890';
const message = 'Não foi possível retornar as alterações.';

/** A stream refused before it began is a JSON answer: read as one. */
async function answerOf(stream: EventStream): Promise<HttpAnswer> {
  const text = await stream.text;
  return { status: stream.status, headers: stream.headers, text, json: JSON.parse(text) as unknown };
}

/** The value of the one sample of `/metrics` named `series`, or undefined. */
function sample(metrics: string, series: string): number | undefined {
  const line = metrics.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('the bounds on followers of the changes, as the built app is configured', () => {
  it('refuses the bound+1-th stream of a key 429, past the total 503 across keys, and admits again once a slot is free', { timeout: 30_000 }, async () => {
    const directory = mkdtempSync(join(tmpdir(), 'workplan-follower-bounds-'));
    const env = {
      PORT: '0',
      HOST: '127.0.0.1',
      STORAGE: 'memory',
      LOG_LEVEL: 'silent',
      API_KEYS: `${payroll} name=Folha role=read,${clock} name=Ponto role=read`,
      FOLLOWERS_PER_KEY: '2',
      FOLLOWERS_MAX: '3',
    };
    const app = runApp(main, env, { cwd: directory });
    const open: EventStream[] = [];
    const stream = async (key: string) => {
      const one = await openEventStream(url, '/api/v1/changes', { key });
      open.push(one);
      return one;
    };
    let url = '';
    try {
      url = await app.listening();
      const [first, second] = [await stream(payroll), await stream(payroll)];
      expect([first.status, second.status]).toEqual([200, 200]);
      const third = await answerOf(await stream(payroll));
      expectProblem(third, 429, 'TOO_MANY_FOLLOWERS', message);
      expect(third.headers['retry-after']).toBe('5');

      expect((await stream(clock)).status).toBe(200);
      const full = await answerOf(await stream(clock));
      expectProblem(full, 503, 'FOLLOWERS_FULL', message);
      expect(full.headers['retry-after']).toBe('5');
      const poll = await send(url, { path: '/api/v1/changes?wait=30', headers: { key: clock } });
      expectProblem(poll, 503, 'FOLLOWERS_FULL', message);

      const metrics = (await send(url, { path: '/metrics' })).text;
      expect(sample(metrics, 'workplan_changes_followers_max')).toBe(3);
      expect(sample(metrics, 'workplan_changes_followers_refused_total{bound="key"}')).toBe(1);
      expect(sample(metrics, 'workplan_changes_followers_refused_total{bound="total"}')).toBe(2);
      // Refused for want of room, not because the storage failed.
      expect(sample(metrics, 'workplan_storage_unavailable_total')).toBe(0);

      first.close();
      await first.ended;
      await expect.poll(async () => (await stream(clock)).status, { timeout: 5000 }).toBe(200);
    } finally {
      for (const one of open) one.close();
      await app.stop();
    }
  });
});
