import { describe, expect, it } from 'vitest';
import { changeIdOf, type Change } from './change.js';
import { ChangeFeed } from './change-feed.js';
import { FOLLOWERS_PER_TURN } from './change-tail.js';
import { type ChangeLog, type ReadOptions } from './ports.js';

/**
 * A change log in memory whose `waitAfter` fails the times it is told to, as a storage's
 * wait does on a fault (SQLite's on a closed or damaged file), and otherwise waits as the
 * port says: until a change is appended, `waitMs` is out, or the signal aborts.
 */
class FaultyLog implements ChangeLog {
  readonly changes: Change[] = [];
  waitFailures = 0;
  readonly #waiters = new Set<() => void>();

  append(): void {
    const sequence = this.changes.length + 1;
    this.changes.push({ id: changeIdOf(sequence), kind: 'workSchedule', recordId: `r${String(sequence)}`, action: 'create', at: new Date(), by: 'test', data: null, previous: null });
    for (const wake of this.#waiters) wake();
  }

  reads = 0;

  read(after: number, limit: number): Promise<Change[]> {
    this.reads += 1;
    return Promise.resolve(this.changes.slice(after, after + limit));
  }

  history(): Promise<Change[]> {
    return Promise.resolve([]);
  }

  waitAfter(after: number, waitMs: number, options?: ReadOptions): Promise<void> {
    if (this.waitFailures > 0) {
      this.waitFailures -= 1;
      return Promise.reject(new Error('the storage failed while it waited'));
    }
    if (this.changes.length > after || options?.signal?.aborted === true) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        options?.signal?.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, waitMs);
      options?.signal?.addEventListener('abort', wake);
      this.#waiters.add(wake);
    });
  }

  prune(): Promise<number> {
    return Promise.resolve(0);
  }
}

const clock = { now: () => new Date() };

describe('ChangeTail, the one reader of the end of the log for every follower', () => {
  it('lets its followers go when the storage fails while it waits, and serves the next ones', async () => {
    const log = new FaultyLog();
    const feed = new ChangeFeed(log, clock);
    log.waitFailures = 1;
    // The follower whose wait met the failure reads on its own and is answered within its wait.
    const first = feed.read({ after: '0', wait: 1 });
    expect(await first).toEqual({ changes: [], next: '0' });
    // One that comes after it, at the same place, is served by a reader that runs again.
    const second = feed.read({ after: '0', wait: 5 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    log.append();
    expect((await second).changes.map((change) => change.id)).toEqual(['1']);
  });

  it('hands a change out FOLLOWERS_PER_TURN followers a turn, and reads the changes committed meanwhile once, for all together', async () => {
    const log = new FaultyLog();
    const turns: (() => void)[] = [];
    const feed = new ChangeFeed(log, clock, () => new Promise<void>((resolve) => turns.push(resolve)));
    const answered: string[][] = [];
    const follow = (after: string): Promise<void> =>
      feed.read({ after, wait: 5 }).then((page) => {
        answered.push(page.changes.map((change) => change.id));
      });
    const followers = 2 * FOLLOWERS_PER_TURN + 5;
    const firsts = Array.from({ length: followers }, () => follow('0'));
    await pause();
    log.append();
    await pause();
    // The first ones have their change; the reader gives way before the next.
    expect(answered).toHaveLength(FOLLOWERS_PER_TURN);
    expect(turns).toHaveLength(1);
    // Committed while the first are handed theirs: read after the hand-out, once.
    log.append();
    log.append();
    const seconds = firsts.map((first) => first.then(() => follow('1')));
    const readsBefore = log.reads;
    for (let turn = 0; turns.length > 0 && turn < 100; turn += 1) {
      turns.shift()?.();
      await pause();
    }
    await Promise.all(firsts);
    expect(answered.slice(0, followers)).toEqual(Array.from({ length: followers }, () => ['1']));
    for (let turn = 0; answered.length < 2 * followers && turn < 100; turn += 1) {
      turns.shift()?.();
      await pause();
    }
    await Promise.all(seconds);
    expect(answered.slice(followers)).toEqual(Array.from({ length: followers }, () => ['2', '3']));
    expect(log.reads - readsBefore).toBe(1);
  });
});

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 5));
}
