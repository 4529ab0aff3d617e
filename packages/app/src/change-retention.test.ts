import { Writable } from 'node:stream';
import { MemoryChangeLog } from '@workplan/adapter-memory';
import { assembleRecord, creationOf, workSchedule, WorkplanError, type ChangeLog } from '@workplan/core';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { keepChangesFor, type ChangeRetention } from './change-retention.js';

const DAY_MS = 86_400_000;
const start = Date.parse('2026-11-25T00:00:00.000Z');

/** A logger whose lines the test reads. */
function capturedLog(): { readonly log: pino.Logger; readonly lines: () => { level: number; msg: string; removed?: number }[] } {
  const written: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString('utf8'));
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines: () => written.join('').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as never) };
}

/** A log holding one change made at each of `ages` days before the start. */
function logWithChangesAged(ages: readonly number[]): MemoryChangeLog {
  const changes = new MemoryChangeLog();
  for (const [index, age] of ages.entries()) {
    const at = new Date(start - age * DAY_MS);
    changes.append(creationOf(workSchedule, assembleRecord(workSchedule, { id: `r${index}`, text: `t${index}`, createdAt: at, updatedAt: at })));
  }
  return changes;
}

const until = async (condition: () => boolean): Promise<void> => {
  for (let tries = 0; !condition(); tries += 1) {
    if (tries > 200) throw new Error('never came');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

let retention: ChangeRetention | undefined;
afterEach(async () => {
  await retention?.stop();
});

describe('keepChangesFor', () => {
  it('removes the changes older than its days at once, and says how many in one line', async () => {
    const changes = logWithChangesAged([40, 31, 29, 1]);
    const { log, lines } = capturedLog();
    retention = keepChangesFor(30, changes, { now: () => new Date(start) }, log, { everyMs: 60_000, retryMs: 60_000 });
    await retention.stop();
    expect((await changes.read(2, 10)).map((change) => change.recordId)).toEqual(['r2', 'r3']);
    await expect(changes.read(1, 10)).rejects.toMatchObject({ kind: 'cursorExpired' });
    expect(lines()).toEqual([expect.objectContaining({ level: 30, removed: 2, msg: 'changes retention: removed 2 change(s) older than 30 day(s)' })]);
  });

  it('removes again as time passes, on its schedule', async () => {
    const changes = logWithChangesAged([2, 1]);
    let now = start;
    const { log, lines } = capturedLog();
    retention = keepChangesFor(3, changes, { now: () => new Date(now) }, log, { everyMs: 20, retryMs: 20 });
    const removals = () => lines().filter((line) => line.removed === 1).length;
    now += 1.5 * DAY_MS;
    await until(() => removals() === 1);
    now += DAY_MS;
    await until(() => removals() === 2);
    await expect(changes.read(2, 10)).resolves.toEqual([]);
  });

  it('logs a prune the storage refuses and tries again, without stopping anything', async () => {
    const inner = new MemoryChangeLog();
    let calls = 0;
    const connecting: ChangeLog = {
      read: (...args) => inner.read(...args),
      history: (...args) => inner.history(...args),
      waitAfter: (...args) => inner.waitAfter(...args),
      prune: (before) => {
        calls += 1;
        return calls === 1 ? Promise.reject(WorkplanError.storageUnavailable(new Error('connecting'))) : inner.prune(before);
      },
    };
    const { log, lines } = capturedLog();
    retention = keepChangesFor(1, connecting, { now: () => new Date(start) }, log, { everyMs: 60_000, retryMs: 20 });
    await until(() => calls >= 2);
    await until(() => lines().length >= 2);
    expect(lines().map((line) => [line.level, line.msg])).toEqual([
      [40, 'changes retention: the storage did not remove old changes; trying again in 0.02 s'],
      [30, 'changes retention: removed 0 change(s) older than 1 day(s)'],
    ]);
  });

  it('calls off the prune running when stopped, and says nothing of it', async () => {
    const inner = new MemoryChangeLog();
    const calledOff: unknown[] = [];
    // A database that never answers: the prune ends only when its signal aborts.
    const frozen: ChangeLog = {
      read: (...args) => inner.read(...args),
      history: (...args) => inner.history(...args),
      waitAfter: (...args) => inner.waitAfter(...args),
      prune: (_before, options) =>
        new Promise((_resolve, reject) => {
          const signal = options?.signal;
          signal?.addEventListener('abort', () => {
            calledOff.push(signal.reason);
            reject(signal.reason instanceof Error ? signal.reason : new Error('called off'));
          }, { once: true });
        }),
    };
    const { log, lines } = capturedLog();
    const running = keepChangesFor(1, frozen, { now: () => new Date(start) }, log, { everyMs: 60_000, retryMs: 20 });
    await running.stop();
    expect(calledOff).toEqual([new Error('the service is stopping')]);
    expect(lines()).toEqual([]);
  });
});
