// The core's history use case in pages, on the memory storage (see catalog.test.ts for why here).
import { createWorkplan, DEFAULT_CHANGES_LIMIT, MAX_CHANGES_LIMIT, WorkplanError, type Change, type Workplan, type WorkplanErrorKind } from '@workplan/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage, type MemoryStorage } from './memory-storage.js';

const rejectsWith = (kind: WorkplanErrorKind) => (error: unknown) => WorkplanError.is(error) && error.kind === kind;

describe("a record's history in pages", () => {
  let workplan: Workplan;

  let storage: MemoryStorage;

  beforeEach(() => {
    storage = createMemoryStorage();
    workplan = createWorkplan({ repositories: storage.repositories, changes: storage.changes });
  });

  it('answers notFound, not cursorExpired, for an id that never was, from an after a prune overtook', async () => {
    const { id } = await workplan.workSchedules.create({ value: 'podada' });
    await workplan.workSchedules.update(id, { value: 'podada 2' });
    await storage.changes.prune(new Date(Date.now() + 60_000));
    await expect(workplan.workSchedules.history('0190a000-0000-7000-8000-000000000000', { after: '1' })).rejects.toSatisfy(rejectsWith('notFound'));
    // A record that is still there meets the prune as any walk does.
    await expect(workplan.workSchedules.history(id, { after: '1' })).rejects.toSatisfy(rejectsWith('cursorExpired'));
  });

  /** A work schedule with `updates` updates after its create, and another record's change between each two. */
  async function recordWith(updates: number): Promise<string> {
    const { id } = await workplan.workSchedules.create({ value: 'v0' });
    for (let n = 1; n <= updates; n += 1) {
      await workplan.costCenters.create({ title: `centro ${String(n)}` });
      await workplan.workSchedules.update(id, { value: `v${String(n)}` });
    }
    return id;
  }

  it('answers the default number of changes, oldest first, and the after of the next page while more follow', async () => {
    const id = await recordWith(DEFAULT_CHANGES_LIMIT + 4);
    const first = await workplan.workSchedules.history(id);
    expect(DEFAULT_CHANGES_LIMIT).toBe(100);
    expect(first.changes).toHaveLength(DEFAULT_CHANGES_LIMIT);
    expect(first.changes[0]?.data?.value).toBe('v0');
    expect(first.next).toBe(first.changes.at(-1)?.id);
    const rest = await workplan.workSchedules.history(id, { after: first.next });
    expect(rest.changes.map((change) => change.data?.value)).toEqual(['v100', 'v101', 'v102', 'v103', 'v104']);
    expect(rest.next).toBeUndefined();
  });

  it('walks every change once by following next, the last page without one', async () => {
    const id = await recordWith(6);
    const seen: Change<'value'>[] = [];
    let page = await workplan.workSchedules.history(id, { limit: 3 });
    const pages = [page];
    while (page.next !== undefined) pages.push((page = await workplan.workSchedules.history(id, { after: page.next, limit: 3 })));
    for (const each of pages) seen.push(...each.changes);
    expect(pages.map((each) => each.changes.length)).toEqual([3, 3, 1]);
    expect(seen.map((change) => change.data?.value)).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6']);
    // A page that ends exactly at the last change says so: no next.
    const exact = await workplan.workSchedules.history(id, { limit: 7 });
    expect([exact.changes.length, exact.next]).toEqual([7, undefined]);
  });

  it('answers an empty page after the last change of a deleted record, and notFound for an id that never was, from any after', async () => {
    const { id } = await workplan.workSchedules.create({ value: 'efêmera' });
    await workplan.workSchedules.delete(id);
    const { changes } = await workplan.workSchedules.history(id);
    await expect(workplan.workSchedules.history(id, { after: changes.at(-1)?.id })).resolves.toEqual({ changes: [] });
    for (const after of [undefined, '0', '1', '999']) {
      await expect(workplan.workSchedules.history('0190a000-0000-7000-8000-000000000000', { after })).rejects.toSatisfy(rejectsWith('notFound'));
    }
  });

  it('refuses a limit out of 1 to the largest, and an after that is no change id, as the feed does', async () => {
    const id = await recordWith(0);
    for (const limit of [0, -1, 1.5, MAX_CHANGES_LIMIT + 1, Number.NaN]) {
      await expect(workplan.workSchedules.history(id, { limit })).rejects.toSatisfy(rejectsWith('invalidQuery'));
    }
    for (const after of ['01', '-1', 'x', '']) await expect(workplan.workSchedules.history(id, { after })).rejects.toSatisfy(rejectsWith('invalidQuery'));
    await expect(workplan.workSchedules.history(id, { limit: MAX_CHANGES_LIMIT })).resolves.toMatchObject({ changes: [{ action: 'create' }] });
  });
});
