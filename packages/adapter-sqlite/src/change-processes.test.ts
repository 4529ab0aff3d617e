import { sequenceOf, type CatalogRecord, type Change, type ChangeLog, type RecordRepository } from '@workplan/core';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { useTempFiles } from './test-support/temp-files.js';
import { startWriterProcess, type WriterProcess } from './test-support/writer-process.js';

const files = useTempFiles();

/** Every change kept, oldest first, a page of a thousand at a time. */
async function everyChange(log: ChangeLog): Promise<Change[]> {
  const changes: Change[] = [];
  for (let page = await log.read(0, 1000); page.length > 0; page = await log.read(sequenceOf(changes.at(-1)?.id), 1000)) changes.push(...page);
  return changes;
}

/** Every record of the repository, by id. */
async function everyRecord(repository: RecordRepository<'value'>): Promise<CatalogRecord<'value'>[]> {
  const records: CatalogRecord<'value'>[] = [];
  for (let page = await repository.list({ skip: 0, limit: 1000 }); page.length > 0; page = await repository.list({ skip: records.length, limit: 1000 })) {
    records.push(...page);
  }
  return records.sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * Checks that `changes` (the whole log, oldest first) and `records` (every record) tell one
 * story: changes numbered 1, 2, ... without a gap, each record's changes each starting from
 * the state the one before left (a create from none), and the records being exactly the
 * states the last changes left: no record without its change, no change without its write.
 */
function expectOneStory(changes: readonly Change[], records: readonly CatalogRecord<'value'>[]): void {
  expect(changes.map((change) => sequenceOf(change.id))).toEqual(changes.map((_, n) => n + 1));
  const last = new Map<string, Change>();
  for (const change of changes) {
    expect(change.previous).toEqual(last.get(change.recordId)?.data ?? null);
    last.set(change.recordId, change);
  }
  const leftByChanges = [...last.values()].flatMap((change) => (change.data === null ? [] : [change.data]));
  expect(records).toEqual(leftByChanges.sort((a, b) => a.id.localeCompare(b.id)));
}

/** Resolves once `writer` has committed its first write; rejects if it ends before. */
async function writingOf(writer: WriterProcess): Promise<void> {
  const endedFirst = writer.ended.then(({ code, output }) => {
    throw new Error(`the writer ended (${String(code)}) before writing: ${output}`);
  });
  endedFirst.catch(() => undefined);
  await Promise.race([writer.writing, endedFirst]);
}

describe('the change log of a file written by processes', () => {
  it('holds, after writers are killed (SIGKILL) mid-run, exactly one change for every write committed, and none for a write that was not', async () => {
    const path = files.databasePath();
    for (let round = 0; round < 4; round += 1) {
      const writer = startWriterProcess(path, `round${String(round)}`);
      await writingOf(writer);
      await delay(100 + Math.random() * 300);
      writer.child.kill('SIGKILL');
      const { signal, output } = await writer.ended;
      expect({ signal, output }).toEqual({ signal: 'SIGKILL', output: 'writing\n' });
    }
    const storage = files.open({ path });
    const changes = await everyChange(storage.changes);
    // Each round wrote, deleted and took up records of the rounds before.
    expect(changes.length).toBeGreaterThan(100);
    expect(new Set(changes.map((change) => change.action))).toEqual(new Set(['create', 'update', 'delete']));
    expectOneStory(changes, await everyRecord(storage.repositories.workSchedules));
  }, 60_000);

  it('serves a reader on a third connection every change of two processes writing at once, exactly once, in order', async () => {
    const path = files.databasePath();
    const reader = files.open({ path });
    const writers = ['left', 'right'].map((tag) => startWriterProcess(path, tag, { writes: 400, gated: true }));
    await Promise.all(writers.map(writingOf));
    for (const writer of writers) writer.go();
    const writing = { ended: false };
    const bothEnded = Promise.all(writers.map((writer) => writer.ended)).finally(() => (writing.ended = true));
    const seen: Change[] = [];
    for (let after = 0, lastLook = false; ; ) {
      const page = await reader.changes.read(after, 100);
      seen.push(...page);
      after = page.length === 0 ? after : sequenceOf(page.at(-1)?.id);
      if (page.length > 0) continue;
      if (lastLook) break;
      // Once both have ended, one more read finds whatever they committed last.
      lastLook = writing.ended;
      if (!lastLook) await reader.changes.waitAfter(after, 1000);
    }
    let kept = 0;
    for (const { code, output } of await bothEnded) {
      expect({ code, output }).toEqual({ code: 0, output: expect.stringMatching(/^writing\ndone: \d+ changes\n$/u) as unknown });
      kept += Number(/done: (\d+)/u.exec(output)?.[1]);
    }

    expect(seen).toEqual(await everyChange(reader.changes));
    // Each write that changed a record, and only those (one that found its record changed by the other writer changed nothing).
    expect(seen).toHaveLength(kept);
    expectOneStory(seen, await everyRecord(reader.repositories.workSchedules));
    // The two wrote at once: their changes interleave in the log, one writer's on both sides
    // of the other's at least. Not much more can be asked: the writes a process has queued
    // share a commit (group commit), so each comes in runs of up to 64.
    const turns = seen.filter((change, n) => n > 0 && change.by !== seen[n - 1]?.by).length;
    expect(turns).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
