import {
  costCenter,
  sequenceOf,
  workSchedule,
  WorkplanError,
  type CatalogRecord,
  type Change,
  type ChangeLog,
  type Repositories,
} from '@workplan/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildRecord, deleteRecord, insertRecord, updateRecord } from './records.js';
import { type StorageFactory } from './storage-under-test.js';

type Schedule = CatalogRecord<'value'>;

const at = (minute: number): Date => new Date(Date.UTC(2026, 10, 22, 14, minute));

/** The changes of `log` from its start, every one of them (as many as a test makes). */
const everyChange = (log: ChangeLog, after = 0): Promise<Change[]> => log.read(after, 1000);

/** Every change kept of a record (as many as a test makes): one page from its start. */
const wholeHistory = (log: ChangeLog, kind: string, recordId: string): Promise<Change[]> => log.history(kind, recordId, 0, 1000);

/** The sequence numbers of `changes`, in their order. */
const sequencesOf = (changes: readonly Change[]): number[] => changes.map((change) => sequenceOf(change.id));

const isIncreasing = (numbers: readonly number[]): boolean => numbers.every((n, i) => i === 0 || (numbers[i - 1] as number) < n);

/**
 * What every storage's change log does: each successful write kept once, numbered in commit
 * order, nothing kept of a refused write, a record's history, waiting for the next change,
 * and removing old changes. Part of the repository contract: `describeRecordRepositoryContract` runs it.
 */
export function describeChangeLogContract(adapterName: string, makeStorage: StorageFactory): void {
  describe(`${adapterName} change log contract`, () => {
    let repositories: Repositories;
    let log: ChangeLog;

    beforeEach(async () => {
      ({ repositories, changes: log } = await makeStorage());
    });

    const insert = (overrides: Parameters<typeof buildRecord>[1] = {}, by?: string): Promise<Schedule> =>
      insertRecord(repositories.workSchedules, workSchedule, overrides, by);

    it('keeps each write as a change, in the order written, as each write answered it', async () => {
      const record = await insert({ text: 'turno A', createdAt: at(1) }, 'Folha');
      const updated = await updateRecord(repositories.workSchedules, workSchedule, record, { text: 'turno B', updatedAt: at(2), by: 'RH' });
      const deleted = await deleteRecord(repositories.workSchedules, workSchedule, updated?.data as Schedule, 'RH');
      const changes = await everyChange(log);
      expect(changes).toEqual([
        expect.objectContaining({ kind: 'workSchedule', recordId: record.id, action: 'create', at: at(1), by: 'Folha', data: record, previous: null }),
        updated,
        deleted,
      ]);
      expect(changes[1]).toMatchObject({ action: 'update', at: at(2), by: 'RH', previous: record, data: { ...record, value: 'turno B', updatedAt: at(2) } });
      expect(changes[2]).toMatchObject({ action: 'delete', data: null, previous: updated?.data });
      expect(isIncreasing(sequencesOf(changes))).toBe(true);
    });

    it('keeps the changes of both kinds in one log, in the order they were written', async () => {
      const schedule = await insert({ text: '12x36' });
      const center = await insertRecord(repositories.costCenters, costCenter, { text: 'Financeiro' });
      await updateRecord(repositories.workSchedules, workSchedule, schedule, { text: '6x1' });
      const changes = await everyChange(log);
      expect(changes.map((change) => [change.kind, change.recordId, change.action])).toEqual([
        ['workSchedule', schedule.id, 'create'],
        ['costCenter', center.id, 'create'],
        ['workSchedule', schedule.id, 'update'],
      ]);
      expect(changes[1]?.data).toEqual(center);
    });

    it('keeps nothing of a write that was refused or found nothing to change', async () => {
      const holder = await insert({ text: 'ocupado' });
      const other = await insert({ text: 'livre' });
      const before = await everyChange(log);
      await expect(insert({ text: 'OCUPADO' })).rejects.toSatisfy((error: unknown) => WorkplanError.is(error) && error.kind === 'conflict');
      await expect(updateRecord(repositories.workSchedules, workSchedule, other, { text: 'Ocupado' })).rejects.toSatisfy(
        (error: unknown) => WorkplanError.is(error) && error.kind === 'conflict',
      );
      const stale = { ...holder, updatedAt: at(0) };
      await expect(updateRecord(repositories.workSchedules, workSchedule, stale, { text: 'novo' })).resolves.toBeUndefined();
      await expect(deleteRecord(repositories.workSchedules, workSchedule, stale)).resolves.toBeUndefined();
      const never = buildRecord(workSchedule, { text: 'nunca' });
      await expect(updateRecord(repositories.workSchedules, workSchedule, never, { text: 'jamais' })).resolves.toBeUndefined();
      await expect(deleteRecord(repositories.workSchedules, workSchedule, never)).resolves.toBeUndefined();
      await expect(everyChange(log)).resolves.toEqual(before);
      // And the log goes on numbering after the refusals.
      const later = await insert({ text: 'depois' });
      const [last] = await everyChange(log, sequenceOf((before.at(-1) as Change).id));
      expect(last).toMatchObject({ action: 'create', recordId: later.id });
    });

    it('reads from after a change, at most the limit, and nothing after the last', async () => {
      for (let n = 0; n < 7; n += 1) await insert({ text: `escala ${String(n)}` });
      const all = await everyChange(log);
      expect(all).toHaveLength(7);
      const third = sequenceOf((all[2] as Change).id);
      await expect(log.read(third, 3)).resolves.toEqual(all.slice(3, 6));
      await expect(log.read(0, 2)).resolves.toEqual(all.slice(0, 2));
      await expect(log.read(sequenceOf((all[6] as Change).id), 10)).resolves.toEqual([]);
    });

    it("keeps a record's history, oldest first, also after the record is deleted", async () => {
      const record = await insert({ text: 'Zeladoria', createdAt: at(1) });
      await insert({ text: 'Portaria' });
      const renamed = await updateRecord(repositories.workSchedules, workSchedule, record, { text: 'Limpeza', updatedAt: at(2) });
      await deleteRecord(repositories.workSchedules, workSchedule, renamed?.data as Schedule);
      const history = await wholeHistory(log, 'workSchedule', record.id);
      expect(history.map((change) => change.action)).toEqual(['create', 'update', 'delete']);
      expect(history.every((change) => change.recordId === record.id)).toBe(true);
      expect(history[1]).toMatchObject({ previous: record, data: { value: 'Limpeza' } });
      await expect(wholeHistory(log, 'costCenter', record.id)).resolves.toEqual([]);
      await expect(wholeHistory(log, 'workSchedule', '00000000-0000-7000-8000-000000000000')).resolves.toEqual([]);
    });

    it("pages a record's history: at most the limit, after a change of the log, oldest first", async () => {
      const record = await insert({ text: 'v0', createdAt: at(1) });
      let current = record;
      for (let n = 1; n <= 6; n += 1) {
        // Another record's changes between them: `after` is a number of the whole log.
        await insert({ text: `outra ${String(n)}` });
        const change = await updateRecord(repositories.workSchedules, workSchedule, current, { text: `v${String(n)}`, updatedAt: at(1 + n) });
        current = change?.data as Schedule;
      }
      const all = await wholeHistory(log, 'workSchedule', record.id);
      expect(all.map((change) => change.data?.value)).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6']);
      await expect(log.history('workSchedule', record.id, 0, 3)).resolves.toEqual(all.slice(0, 3));
      const third = sequenceOf((all[2] as Change).id);
      await expect(log.history('workSchedule', record.id, third, 3)).resolves.toEqual(all.slice(3, 6));
      // A number between two of the record's changes, such as another record's: the page starts at the next one of the record.
      await expect(log.history('workSchedule', record.id, third + 1, 2)).resolves.toEqual(all.slice(3, 5));
      await expect(log.history('workSchedule', record.id, sequenceOf((all[5] as Change).id), 10)).resolves.toEqual(all.slice(6));
      await expect(log.history('workSchedule', record.id, sequenceOf((all[6] as Change).id), 10)).resolves.toEqual([]);
      await expect(log.history('workSchedule', record.id, sequenceOf((all[6] as Change).id) + 1000, 10)).resolves.toEqual([]);
      await expect(log.history('costCenter', record.id, 0, 10)).resolves.toEqual([]);
    });

    it("reads a record's history on from the last change of a page, one at a time, to its end", async () => {
      const record = await insert({ text: 'p0' });
      let current = record;
      for (let n = 1; n <= 4; n += 1) current = (await updateRecord(repositories.workSchedules, workSchedule, current, { text: `p${String(n)}` }))?.data as Schedule;
      const walked: Change[] = [];
      for (let page = await log.history('workSchedule', record.id, 0, 1); page.length > 0; ) {
        expect(page).toHaveLength(1);
        walked.push(...page);
        page = await log.history('workSchedule', record.id, sequenceOf((page.at(-1) as Change).id), 1);
      }
      await expect(wholeHistory(log, 'workSchedule', record.id)).resolves.toEqual(walked);
      expect(walked).toHaveLength(5);
    });

    it('keeps what it stores apart from what callers hold', async () => {
      const record = await insert({ text: '6x1', createdAt: at(3) });
      const [change] = await everyChange(log);
      change?.at.setTime(0);
      change?.data?.createdAt.setTime(0);
      record.updatedAt.setTime(0);
      const [again] = await everyChange(log);
      expect(again?.at).toEqual(at(3));
      expect(again?.data?.createdAt).toEqual(at(3));
      expect(again?.data?.updatedAt).toEqual(at(3));
    });

    it('keeps exactly one change per write that succeeded among many concurrent ones, each record in its order', async () => {
      const records = await Promise.all(Array.from({ length: 6 }, (_, n) => insert({ text: `base ${String(n)}` })));
      // Every record gets several updates racing from one state (one wins each round), and clashing creates race too.
      let won = records.length;
      for (let round = 0; round < 3; round += 1) {
        const current = await Promise.all(records.map((record) => repositories.workSchedules.findById(record.id)));
        const writes = current.flatMap((record) =>
          [0, 1, 2].map((n) => updateRecord(repositories.workSchedules, workSchedule, record as Schedule, { text: `r${String(round)} ${record?.id ?? ''} ${String(n)}` })),
        );
        const creates = [0, 1, 2].map(() => insert({ text: `disputa ${String(round)}` }).then(() => true, () => false));
        const [updated, created] = await Promise.all([Promise.all(writes), Promise.all(creates)]);
        won += updated.filter((change) => change !== undefined).length + created.filter(Boolean).length;
      }
      const changes = await everyChange(log);
      expect(changes).toHaveLength(won);
      expect(isIncreasing(sequencesOf(changes))).toBe(true);
      for (const record of records) {
        const ofRecord = changes.filter((change) => change.recordId === record.id);
        expect(ofRecord).toHaveLength(4);
        // Each change starts from the state the one before it left.
        ofRecord.forEach((change, n) => {
          if (n > 0) expect(change.previous).toEqual(ofRecord[n - 1]?.data);
        });
        await expect(repositories.workSchedules.findById(record.id)).resolves.toEqual(ofRecord.at(-1)?.data);
      }
    });

    it('serves a reader that follows it while writers run every change exactly once, in order', async () => {
      const seen: Change[] = [];
      const writers = { done: false };
      const follow = (async () => {
        let after = 0;
        while (!writers.done || (await log.read(after, 1)).length > 0) {
          const page = await log.read(after, 3);
          seen.push(...page);
          after = page.length === 0 ? after : sequenceOf((page.at(-1) as Change).id);
          if (page.length === 0) await log.waitAfter(after, 20);
        }
      })();
      const writing = Array.from({ length: 4 }, async (_, writer) => {
        for (let n = 0; n < 10; n += 1) {
          const record = await insert({ text: `w${String(writer)} ${String(n)}` });
          if (n % 3 === 0) await updateRecord(repositories.workSchedules, workSchedule, record, { text: `w${String(writer)} ${String(n)}'` });
        }
      });
      await Promise.all(writing);
      writers.done = true;
      await follow;
      expect(seen).toEqual(await everyChange(log));
      expect(seen).toHaveLength(40 + 16);
    });

    describe('waiting', () => {
      it('wakes a waiter soon after a change is committed', async () => {
        // Its wait outlasts the test: woken at all, it was woken by the change.
        const waiting = log.waitAfter(0, 60_000);
        setTimeout(() => void insert({ text: 'acorda' }), 50);
        await waiting;
        await expect(everyChange(log)).resolves.toHaveLength(1);
      });

      it('resolves at once when a change after the given one is already there', async () => {
        await insert({ text: 'já' });
        // Its wait outlasts the test: resolved at all, it did not wait.
        await log.waitAfter(0, 60_000);
      });

      it('resolves once its time is out, or when its signal aborts, without a change', async () => {
        const started = Date.now();
        await log.waitAfter(0, 150);
        expect(Date.now() - started).toBeGreaterThanOrEqual(100);
        const controller = new AbortController();
        // Its wait outlasts the test: resolved at all, it was by the abort.
        const aborted = log.waitAfter(0, 60_000, { signal: controller.signal });
        setTimeout(() => {
          controller.abort(new Error('the client left'));
        }, 50);
        await aborted;
      });
    });

    describe('pruning', () => {
      it('removes the oldest changes, then refuses to read from before them, and numbers on', async () => {
        const old = await insert({ text: 'antigo', createdAt: at(1) });
        await insert({ text: 'velho', createdAt: at(2) });
        await insert({ text: 'novo', createdAt: at(30) });
        const all = await everyChange(log);
        await expect(log.prune(at(10))).resolves.toBe(2);
        const firstKept = all[2] as Change;
        const lastGone = sequenceOf((all[1] as Change).id);
        await expect(log.read(lastGone, 10)).resolves.toEqual([firstKept]);
        for (const after of [1, lastGone - 1]) {
          await expect(log.read(after, 10)).rejects.toSatisfy((error: unknown) => WorkplanError.is(error) && error.kind === 'cursorExpired');
        }
        // A new follower starts from the first change kept.
        await expect(log.read(0, 10)).resolves.toEqual([firstKept]);
        await expect(wholeHistory(log, 'workSchedule', old.id)).resolves.toEqual([]);
        await expect(log.prune(at(10))).resolves.toBe(0);
        await expect(log.prune(at(59))).resolves.toBe(1);
        const next = await insert({ text: 'depois', createdAt: at(40) });
        const [after] = await log.read(sequenceOf(firstKept.id), 10);
        expect(after).toMatchObject({ recordId: next.id });
        expect(sequenceOf(after?.id)).toBeGreaterThan(sequenceOf(firstKept.id));
      });

      it("keeps a record's later changes in its history when its earlier ones go", async () => {
        const record = await insert({ text: 'turno A', createdAt: at(1) });
        const first = await updateRecord(repositories.workSchedules, workSchedule, record, { text: 'turno B', updatedAt: at(5) });
        const second = await updateRecord(repositories.workSchedules, workSchedule, first?.data as Schedule, { text: 'turno C', updatedAt: at(20) });
        const third = await updateRecord(repositories.workSchedules, workSchedule, second?.data as Schedule, { text: 'turno D', updatedAt: at(40) });
        await expect(log.prune(at(10))).resolves.toBe(2);
        await expect(wholeHistory(log, 'workSchedule', record.id)).resolves.toEqual([second, third]);
        await expect(log.prune(at(30))).resolves.toBe(1);
        await expect(wholeHistory(log, 'workSchedule', record.id)).resolves.toEqual([third]);
        const deleted = await deleteRecord(repositories.workSchedules, workSchedule, third?.data as Schedule);
        await expect(wholeHistory(log, 'workSchedule', record.id)).resolves.toEqual([third, deleted]);
      });

      it("refuses a page of a record's history after a change no longer kept, and pages from the first kept", async () => {
        const record = await insert({ text: 'turno A', createdAt: at(1) });
        const first = await updateRecord(repositories.workSchedules, workSchedule, record, { text: 'turno B', updatedAt: at(5) });
        const second = await updateRecord(repositories.workSchedules, workSchedule, first?.data as Schedule, { text: 'turno C', updatedAt: at(20) });
        await expect(log.prune(at(10))).resolves.toBe(2);
        const gone = sequenceOf(first?.id);
        await expect(log.history('workSchedule', record.id, gone - 1, 10)).rejects.toSatisfy((error: unknown) => WorkplanError.is(error) && error.kind === 'cursorExpired');
        // From the last change removed, nothing was missed.
        await expect(log.history('workSchedule', record.id, gone, 10)).resolves.toEqual([second]);
        await expect(log.history('workSchedule', record.id, 0, 10)).resolves.toEqual([second]);
      });

      it('removes nothing when called off before it starts, rejecting with the reason', async () => {
        await insert({ text: 'antigo', createdAt: at(1) });
        const all = await everyChange(log);
        const reason = new Error('the service is stopping');
        const calledOff = new AbortController();
        calledOff.abort(reason);
        await expect(log.prune(at(10), { signal: calledOff.signal })).rejects.toBe(reason);
        await expect(everyChange(log)).resolves.toEqual(all);
      });

      it("starts a record's history again from its next change when a prune took all it had", async () => {
        const record = await insert({ text: 'turno A', createdAt: at(1) });
        const first = await updateRecord(repositories.workSchedules, workSchedule, record, { text: 'turno B', updatedAt: at(2) });
        const second = await updateRecord(repositories.workSchedules, workSchedule, first?.data as Schedule, { text: 'turno C', updatedAt: at(3) });
        await expect(log.prune(at(10))).resolves.toBe(3);
        await expect(wholeHistory(log, 'workSchedule', record.id)).resolves.toEqual([]);
        const next = await updateRecord(repositories.workSchedules, workSchedule, second?.data as Schedule, { text: 'turno D', updatedAt: at(20) });
        await expect(wholeHistory(log, 'workSchedule', record.id)).resolves.toEqual([next]);
      });
    });
  });
}
