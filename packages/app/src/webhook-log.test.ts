import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { logDeliveryEvent } from './webhook-log.js';

/** A logger whose lines a test reads back. */
function capturedLogger(): { logger: pino.Logger; lines: () => { level: number; msg: string; subscription: string }[] } {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  return { logger, lines: () => chunks.join('').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as never) };
}

describe('the log of deliveries', () => {
  it('writes one line per failure naming the subscription and the cause, and none per delivery', () => {
    const { logger, lines } = capturedLogger();
    logDeliveryEvent(logger, { type: 'delivered', subscription: 'folha', changeId: '1', durationMs: 3 });
    logDeliveryEvent(logger, {
      type: 'failed',
      subscription: 'folha',
      changeId: '2',
      outcome: 'status',
      cause: 'HTTP 503',
      nextAttempt: new Date('2026-11-25T10:00:01.000Z'),
    });
    logDeliveryEvent(logger, { type: 'failed', subscription: 'ponto', changeId: '7', outcome: 'timeout', cause: 'no answer in 10 s', nextAttempt: null });
    logDeliveryEvent(logger, { type: 'expired', subscription: 'folha', after: 0, resumedAfter: 3 });
    expect(lines().map(({ level, msg, subscription }) => ({ level, msg, subscription }))).toEqual([
      { level: 40, subscription: 'folha', msg: 'webhook folha: change 2 not delivered (HTTP 503); next attempt at 2026-11-25T10:00:01.000Z' },
      {
        level: 50,
        subscription: 'ponto',
        msg: 'webhook ponto: change 7 not delivered (no answer in 10 s); retried for the whole retry period, now marked failing: SIGHUP or a restart resumes it',
      },
      { level: 40, subscription: 'folha', msg: 'webhook folha: changes 1 to 3 were removed by retention before they were delivered; passed over' },
    ]);
  });
});
