import { changeIdOf, type Change, type ChangeLog } from '@workplan/core';
import { send } from '@workplan/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChangesJson } from './change-json.js';
import { CHANGES_PER_TURN, changesJsonInTurns, PageTurns } from './page-turns.js';
import { type ChangesFeed, type RecordChange } from './resources.js';
import { startMemoryApp, type MemoryApp } from './testing/memory-app.js';

const key = 'page-turns-test-key-0123';

/** `count` changes of record `recordId`, each with null data, numbered from `after + 1`. */
function changesOf(count: number, kind = 'workSchedule', recordId = '0190d1a2-0000-7000-8000-000000000001', after = 0): Change[] {
  return Array.from({ length: count }, (_, n) => ({
    id: changeIdOf(after + n + 1),
    kind,
    recordId,
    action: 'delete' as const,
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
    by: 'someone',
    data: null,
    previous: null,
  }));
}

/** A writer that counts the changes it has written. */
function countingJson(): ChangesJson & { written: number } {
  const json = {
    written: 0,
    one: (change: RecordChange) => {
      json.written += 1;
      return JSON.stringify({ id: change.id, recordId: change.recordId });
    },
  };
  return json;
}

/**
 * Counts turns of the event loop: an immediate that sets itself again, so one runs in
 * each turn's check phase, between the pieces `PageTurns` lets go (one a turn, set the same way).
 */
function turnCounter(onTurn: () => void): { stop: () => void } {
  let running = true;
  const tick = (): void => {
    if (!running) return;
    onTurn();
    setImmediate(tick);
  };
  setImmediate(tick);
  return { stop: () => (running = false) };
}

describe('PageTurns', () => {
  it('writes no more than CHANGES_PER_TURN changes a turn of the event loop, across every page under way, and the same bytes as at once', async () => {
    const turns = new PageTurns();
    const json = countingJson();
    const perTurn: number[] = [];
    let before = 0;
    const counter = turnCounter(() => {
      perTurn.push(json.written - before);
      before = json.written;
    });
    const pages = [changesOf(1000), changesOf(250), changesOf(1)];
    const written = await Promise.all(pages.map((changes) => changesJsonInTurns(changes, json, turns)));
    counter.stop();
    expect(json.written).toBe(1251);
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(CHANGES_PER_TURN);
    pages.forEach((changes, n) => {
      expect(Buffer.concat(written[n] ?? []).toString('utf8')).toBe(`[${changes.map((change) => json.one(change)).join(',')}]`);
    });
  });

  it('writes an empty page as [] without waiting for a turn', async () => {
    const parts = await changesJsonInTurns([], countingJson(), new PageTurns());
    expect(Buffer.concat(parts).toString('utf8')).toBe('[]');
  });

  it('gives the pieces of pages under way their turns before pages not begun, each kind in the order asked, one a turn', async () => {
    const turns = new PageTurns();
    const order: string[] = [];
    let turn = 0;
    const counter = turnCounter(() => (turn += 1));
    const piece = async (name: string, wait: Promise<void>) => {
      await wait;
      order.push(`${name}@${turn}`);
    };
    const first = piece('a read', turns.begin());
    const second = piece('b read', turns.begin());
    const third = piece('a json', turns.next());
    const fourth = piece('a json again', turns.next());
    await Promise.all([first, second, third, fourth]);
    counter.stop();
    expect(order.map((entry) => entry.split('@')[0])).toEqual(['a json', 'a json again', 'a read', 'b read']);
    const at = order.map((entry) => Number(entry.split('@')[1]));
    expect(new Set(at).size).toBe(4);
  });

  it('drops a piece whose request is called off while it waits, with the reason, and goes on with the rest', async () => {
    const turns = new PageTurns();
    const leaving = new AbortController();
    const dropped = turns.begin(leaving.signal);
    const kept = turns.begin();
    const reason = new Error('the client left');
    leaving.abort(reason);
    await expect(dropped).rejects.toBe(reason);
    await expect(kept).resolves.toBeUndefined();
    await expect(turns.next(leaving.signal)).rejects.toBe(reason);
  });
});

describe('a page of 1000 changes over HTTP', () => {
  let running: MemoryApp | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  /** Serves `app`, and tells whether an immediate set when the page was read had run before the answer's `end`. */
  const endedAfterATurn = async (serve: (read: () => void) => Promise<MemoryApp>, path: string): Promise<{ status: number; data: number; ranFirst: boolean | undefined }> => {
    let ran = false;
    let ranFirst: boolean | undefined;
    running = await serve(() => setImmediate(() => (ran = true)));
    running.server.prependListener('request', (_req, res) => {
      const end = res.end.bind(res);
      res.end = ((...args: Parameters<typeof end>) => {
        ranFirst ??= ran;
        return end(...args);
      }) as typeof res.end;
    });
    const answer = await send(running.baseUrl, { path, headers: { key } });
    return { status: answer.status, data: (answer.json as { data: unknown[] }).data.length, ranFirst };
  };

  it('of the feed lets another turn of the event loop run between its read and its end', async () => {
    const result = await endedAfterATurn(async (read) => {
      const feed: ChangesFeed = {
        read: async () => {
          read();
          return { changes: changesOf(1000), next: changeIdOf(1000) };
        },
      };
      return startMemoryApp({ key, http: { changes: feed } });
    }, '/api/v1/changes?limit=1000');
    expect(result).toEqual({ status: 200, data: 1000, ranFirst: true });
  });

  it('of a history lets another turn of the event loop run between its read and its end', async () => {
    const id = '0190d1a2-0000-7000-8000-000000000001';
    const result = await endedAfterATurn(async (read) => {
      const changes: ChangeLog = {
        read: async () => [],
        history: async (kind, recordId, after, limit) => {
          read();
          return changesOf(Math.min(limit, 1000), kind, recordId, after);
        },
        waitAfter: async () => undefined,
        prune: async () => 0,
      };
      return startMemoryApp({ key, workplan: { changes } });
    }, `/api/v1/scale/${id}/history?limit=1000`);
    expect(result).toEqual({ status: 200, data: 1000, ranFirst: true });
  });
});
