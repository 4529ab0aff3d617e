// The core's history and change feed use cases, on the memory storage (see catalog.test.ts for why here).
import { createWorkplan, revisionOf, systemClock, workSchedule, WorkplanError, type Clock, type Workplan, type WorkplanErrorKind } from '@workplan/core';
import { insertRecord, isSettled } from '@workplan/testing';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRecordRepository } from './memory-repository.js';
import { createMemoryStorage, type MemoryStorage } from './memory-storage.js';

const rejectsWith = (kind: WorkplanErrorKind) => (error: unknown) => WorkplanError.is(error) && error.kind === kind;

/** A clock a test moves by hand, each reading one millisecond later so writes are told apart. */
function steppingClock(start: string): Clock {
  let now = new Date(start).getTime();
  return { now: () => new Date((now += 1)) };
}

describe('history and changes', () => {
  let storage: MemoryStorage;
  let workplan: Workplan;

  beforeEach(() => {
    storage = createMemoryStorage();
    workplan = createWorkplan({ repositories: storage.repositories, changes: storage.changes, clock: steppingClock('2026-11-25T10:00:00.000Z') });
  });

  it('keeps who made each write and when, and what the record was before and after', async () => {
    const created = await workplan.workSchedules.create({ value: '12x36' }, { by: 'Folha' });
    const updated = await workplan.workSchedules.update(created.id, { value: '12x60' }, undefined, { by: 'RH' });
    await workplan.workSchedules.delete(updated.id, [revisionOf(updated)], { by: 'RH' });
    const { changes: history } = await workplan.workSchedules.history(created.id);
    expect(history).toEqual([
      { id: '1', kind: 'workSchedule', recordId: created.id, action: 'create', at: created.updatedAt, by: 'Folha', data: created, previous: null },
      { id: '2', kind: 'workSchedule', recordId: created.id, action: 'update', at: updated.updatedAt, by: 'RH', data: updated, previous: created },
      expect.objectContaining({ id: '3', action: 'delete', by: 'RH', data: null, previous: updated }),
    ]);
    expect(history[2]?.at.getTime()).toBeGreaterThan(updated.updatedAt.getTime());
  });

  it("names a library caller's writes `system`", async () => {
    const created = await workplan.costCenters.create({ title: 'Financeiro' });
    await expect(workplan.costCenters.history(created.id)).resolves.toMatchObject({ changes: [{ by: 'system', kind: 'costCenter' }] });
  });

  it('answers notFound for the history of an id that never had a record, and none for a record stored before changes were kept', async () => {
    await expect(workplan.workSchedules.history('0190a000-0000-7000-8000-000000000000')).rejects.toSatisfy(rejectsWith('notFound'));
    // A repository keeping its changes in a log of its own: its records have none in this one.
    const older = new MemoryRecordRepository(workSchedule);
    const record = await insertRecord(older, workSchedule, { text: 'antigo' });
    const over = createWorkplan({ repositories: { ...storage.repositories, workSchedules: older }, changes: storage.changes });
    await expect(over.workSchedules.history(record.id)).resolves.toEqual({ changes: [] });
  });

  it('keeps no change of a write the catalog refused', async () => {
    const created = await workplan.workSchedules.create({ value: 'ocupado' });
    const other = await workplan.workSchedules.create({ value: 'livre' });
    await expect(workplan.workSchedules.create({ value: 'OCUPADO' })).rejects.toSatisfy(rejectsWith('conflict'));
    await expect(workplan.workSchedules.update(other.id, { value: 'Ocupado' })).rejects.toSatisfy(rejectsWith('conflict'));
    await expect(workplan.workSchedules.update(other.id, { value: 'x' }, ['velha'])).rejects.toSatisfy(rejectsWith('stale'));
    await expect(workplan.workSchedules.delete(created.id, ['velha'])).rejects.toSatisfy(rejectsWith('stale'));
    await expect(workplan.workSchedules.delete('0190a000-0000-7000-8000-000000000000')).rejects.toSatisfy(rejectsWith('notFound'));
    await expect(workplan.workSchedules.update(other.id, { value: '' })).rejects.toSatisfy(rejectsWith('validation'));
    const { changes } = await workplan.changes.read();
    expect(changes.map((change) => change.action)).toEqual(['create', 'create']);
  });

  describe('the feed', () => {
    it('reads in commit order from after a change, at most the limit, naming where to go on', async () => {
      for (const value of ['a', 'b', 'c']) await workplan.workSchedules.create({ value });
      await workplan.costCenters.create({ title: 'd' });
      await expect(workplan.changes.read({ limit: 2 })).resolves.toMatchObject({ changes: [{ id: '1' }, { id: '2' }], next: '2' });
      await expect(workplan.changes.read({ after: '2' })).resolves.toMatchObject({ changes: [{ id: '3' }, { id: '4', kind: 'costCenter' }], next: '4' });
      await expect(workplan.changes.read({ after: '4' })).resolves.toEqual({ changes: [], next: '4' });
      await expect(workplan.changes.read({ after: '0', limit: 1 })).resolves.toMatchObject({ changes: [{ id: '1' }] });
    });

    it.each([
      ['after', { after: 'x' }],
      ['after', { after: '-1' }],
      ['after', { after: '01' }],
      ['after', { after: '1.5' }],
      ['after', { after: '99999999999999999' }],
      ['limit', { limit: 0 }],
      ['limit', { limit: 1001 }],
      ['limit', { limit: 1.5 }],
      ['wait', { wait: 0 }],
      ['wait', { wait: 31 }],
      ['wait', { wait: Number.NaN }],
    ])('refuses a bad %s: %j', async (_name, request) => {
      await expect(workplan.changes.read(request)).rejects.toSatisfy(rejectsWith('invalidQuery'));
    });

    it('holds a read with wait until a change is committed', async () => {
      const live = createWorkplan({ repositories: storage.repositories, changes: storage.changes, clock: systemClock });
      const reading = live.changes.read({ wait: 10 });
      expect(await isSettled(reading)).toBe(false);
      await live.workSchedules.create({ value: 'acordou' });
      // Woken by the commit, not by the end of its wait (an order, not a time).
      expect(await isSettled(reading)).toBe(true);
      await expect(reading).resolves.toMatchObject({ changes: [{ action: 'create', data: { value: 'acordou' } }] });
    });

    describe('read once for every follower waiting', () => {
      /** Lets every read already called run up to its wait (the memory log answers within a few turns of the loop). */
      const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

      /** How many times the log is read for one create while `followers` wait at its end. */
      async function readsOfOneCreate(followers: number): Promise<number> {
        const own = createMemoryStorage();
        const live = createWorkplan({ repositories: own.repositories, changes: own.changes, clock: systemClock });
        const { next } = await live.changes.read();
        const reads = vi.spyOn(own.changes, 'read');
        const following = Array.from({ length: followers }, () => live.changes.read({ after: next, wait: 10 }));
        await settled();
        reads.mockClear();
        await live.workSchedules.create({ value: `com ${followers}` });
        const pages = await Promise.all(following);
        expect(pages.map((page) => page.changes.map((change) => change.data?.value))).toEqual(Array.from({ length: followers }, () => [`com ${followers}`]));
        const count = reads.mock.calls.length;
        reads.mockRestore();
        return count;
      }

      it('reads a change once whether one follower or twenty wait for it', async () => {
        expect([await readsOfOneCreate(1), await readsOfOneCreate(20)]).toEqual([1, 1]);
      });

      it('reads each of M changes once while N followers read on from each page (as streams do)', async () => {
        const live = createWorkplan({ repositories: storage.repositories, changes: storage.changes, clock: systemClock });
        const { next: start } = await live.changes.read();
        const rounds = 5;
        const follow = async (): Promise<string[]> => {
          const seen: string[] = [];
          for (let after = start; seen.length < rounds; ) {
            const page = await live.changes.read({ after, wait: 10 });
            seen.push(...page.changes.map((change) => String(change.data?.value)));
            after = page.next;
          }
          return seen;
        };
        const followers = Array.from({ length: 10 }, follow);
        await settled();
        const reads = vi.spyOn(storage.changes, 'read');
        const values = Array.from({ length: rounds }, (_, index) => `m${index}`);
        for (const value of values) {
          await live.workSchedules.create({ value });
          await settled();
        }
        expect(await Promise.all(followers)).toEqual(Array.from({ length: 10 }, () => values));
        expect(reads.mock.calls.length).toBe(rounds);
      });

      it('serves followers a change behind (long polls answered a change ago, coming back) from the shared read', async () => {
        const live = createWorkplan({ repositories: storage.repositories, changes: storage.changes, clock: systemClock });
        const { next: start } = await live.changes.read();
        const polls = (after: string) => Array.from({ length: 10 }, () => live.changes.read({ after, wait: 10 }));
        const first = polls(start);
        await settled();
        const reads = vi.spyOn(storage.changes, 'read');
        await live.workSchedules.create({ value: 'x' });
        const answered = await Promise.all(first);
        // Committed before any comes back.
        await live.workSchedules.create({ value: 'y' });
        await settled();
        const again = await Promise.all(answered.map((page) => live.changes.read({ after: page.next, wait: 10 })));
        expect(again.map((page) => page.changes.map((change) => change.data?.value))).toEqual(Array.from({ length: 10 }, () => ['y']));
        expect(reads.mock.calls.length).toBe(2);
      });

      it('lets a follower behind read up on its own, in order, then be served with the rest', async () => {
        const live = createWorkplan({ repositories: storage.repositories, changes: storage.changes, clock: systemClock });
        for (const value of ['a', 'b', 'c']) await live.workSchedules.create({ value });
        const { next: end } = await live.changes.read({ limit: 1000 });
        const atEnd = live.changes.read({ after: end, wait: 10 });
        await settled();
        const seen: string[] = [];
        for (let after = '0'; seen.length < 4; ) {
          const page = await live.changes.read({ after, limit: 1, wait: 10 });
          seen.push(...page.changes.map((change) => String(change.data?.value)));
          after = page.next;
          if (seen.length === 3) await live.workSchedules.create({ value: 'd' });
        }
        expect(seen).toEqual(['a', 'b', 'c', 'd']);
        await expect(atEnd).resolves.toMatchObject({ changes: [{ data: { value: 'd' } }] });
      });
    });

    it('answers no change once the wait is over', async () => {
      const live = createWorkplan({ repositories: storage.repositories, changes: storage.changes, clock: systemClock });
      const started = Date.now();
      await expect(live.changes.read({ wait: 1 })).resolves.toEqual({ changes: [], next: '0' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    });

    it('answers cursorExpired for a place before the changes kept', async () => {
      await workplan.workSchedules.create({ value: 'velho' });
      await workplan.workSchedules.create({ value: 'novo' });
      await storage.changes.prune(new Date('2100-01-01T00:00:00.000Z'));
      await expect(workplan.changes.read({ after: '1' })).rejects.toSatisfy(rejectsWith('cursorExpired'));
      await expect(workplan.changes.read({ after: '2' })).resolves.toEqual({ changes: [], next: '2' });
      const kept = await workplan.workSchedules.create({ value: 'depois' });
      await expect(workplan.changes.read()).resolves.toMatchObject({ changes: [{ id: '3', recordId: kept.id }], next: '3' });
    });
  });
});
