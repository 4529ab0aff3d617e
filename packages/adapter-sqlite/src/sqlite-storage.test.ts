import { creationOf, uniquenessKey, workSchedule, WorkplanError, costCenter } from '@workplan/core';
import { buildRecord, runCommand } from '@workplan/testing';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from './schema.js';
import { type SqliteStorage } from './sqlite-storage.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

async function insertSchedule(storage: SqliteStorage, text: string) {
  const record = buildRecord(workSchedule, { text });
  await storage.repositories.workSchedules.insert(creationOf(workSchedule, record), uniquenessKey(text));
  return record;
}

function readPragma(path: string, pragma: string): unknown {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return Object.values(db.prepare(`PRAGMA ${pragma}`).get() ?? {})[0];
  } finally {
    db.close();
  }
}

// The built package, as another process of an app would load it (`pnpm test` builds first).
const built = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const builtCore = fileURLToPath(import.meta.resolve('@workplan/core'));

/**
 * Runs `processes` node processes that, round after round, all open the round's new file
 * at the same moment; resolves each process's output, a line per round.
 */
async function openTogether(paths: readonly string[], processes: number): Promise<string[]> {
  const start = Date.now() + 500;
  const script = `
    const { SqliteStorage } = await import(${JSON.stringify(built)});
    const paths = ${JSON.stringify(paths)};
    for (const [round, path] of paths.entries()) {
      while (Date.now() < ${start} + round * 200) {}
      try { await SqliteStorage.open({ path }).close(); console.log('opened'); }
      catch (error) { console.log(error.message); }
    }`;
  const children = Array.from({ length: processes }, () => spawn(process.execPath, ['--input-type=module', '-e', script]));
  return Promise.all(
    children.map(async (child) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await once(child, 'exit');
      return output;
    }),
  );
}

describe('SqliteStorage', () => {
  it('creates the file, its folder and schema version 6 in WAL mode', async () => {
    const path = join(files.folder(), 'a', 'b', 'workplan.db');
    const storage = files.open({ path });
    expect(storage.path).toBe(path);
    expect(storage.settings()).toMatchObject({ journalMode: 'wal', busyTimeoutMs: 2000 });
    expect(SCHEMA_VERSION).toBe(6);
    expect(readPragma(path, 'user_version')).toBe(6);
  });

  it('keeps records across a close and a reopen, with the same id, text and dates', async () => {
    const path = files.databasePath();
    const first = files.open({ path });
    const schedule = await insertSchedule(first, '12x36');
    const center = buildRecord(costCenter, { text: 'Financeiro', createdAt: new Date('2020-02-29T23:59:59.999Z') });
    await first.repositories.costCenters.insert(creationOf(costCenter, center), 'financeiro');
    await first.close();
    const again = files.open({ path });
    await expect(again.repositories.workSchedules.findById(schedule.id)).resolves.toEqual(schedule);
    await expect(again.repositories.costCenters.list({ skip: 0, limit: 10 })).resolves.toEqual([center]);
  });

  it.each([
    [undefined, 'normal'],
    ['normal', 'normal'],
    ['full', 'full'],
  ] as const)('applies synchronous %s as %s', async (synchronous, expected) => {
    const storage = files.open({ path: files.databasePath(), ...(synchronous && { synchronous }) });
    expect(storage.settings().synchronous).toBe(expected);
  });

  it('applies the busy timeout asked for', async () => {
    const storage = files.open({ path: files.databasePath(), busyTimeoutMs: 123 });
    expect(storage.settings().busyTimeoutMs).toBe(123);
  });

  it('lets two storages on one file see each other\'s records', async () => {
    const path = files.databasePath();
    const [one, two] = [files.open({ path }), files.open({ path })];
    const fromOne = await insertSchedule(one, '6x1');
    const fromTwo = await insertSchedule(two, '5x2');
    await expect(two.repositories.workSchedules.findById(fromOne.id)).resolves.toEqual(fromOne);
    await expect(one.repositories.workSchedules.list({ skip: 0, limit: 10 })).resolves.toEqual([fromOne, fromTwo]);
  });

  it('keeps a key unique across two storages on one file: one insert wins, the others name it', async () => {
    const path = files.databasePath();
    const [one, two] = [files.open({ path }), files.open({ path })];
    const attempts = Array.from({ length: 10 }, (_, n) => ({
      storage: n % 2 === 0 ? one : two,
      record: buildRecord(workSchedule, { text: '4x3' }),
    }));
    const inserts = attempts.map(({ storage, record }) => storage.repositories.workSchedules.insert(creationOf(workSchedule, record), '4x3'));
    const results = await Promise.allSettled(inserts);
    const winners = attempts.filter((_, n) => results[n]?.status === 'fulfilled');
    expect(winners).toHaveLength(1);
    const winnerId = winners[0]?.record.id;
    for (const result of results.filter((r) => r.status === 'rejected')) {
      expect(result.reason).toMatchObject({ kind: 'conflict', existingId: winnerId });
    }
  });

  it('answers storageUnavailable when another connection keeps the write lock past the busy timeout', async () => {
    const path = files.databasePath();
    const storage = files.open({ path, busyTimeoutMs: 50 });
    const other = new DatabaseSync(path);
    files.closeAfter(other);
    other.exec('BEGIN IMMEDIATE');
    const record = buildRecord(workSchedule);
    await expect(storage.repositories.workSchedules.insert(creationOf(workSchedule, record), 'busy')).rejects.toSatisfy(
      (error: unknown) => WorkplanError.is(error) && error.kind === 'storageUnavailable' && error.cause instanceof Error,
    );
    other.exec('ROLLBACK');
    await expect(storage.repositories.workSchedules.insert(creationOf(workSchedule, record), 'busy')).resolves.toMatchObject({ action: 'create', recordId: record.id });
  });

  it('opens one new file from many processes at once, each of them, though SQLite refuses all but one WAL switch without waiting', async () => {
    const paths = Array.from({ length: 8 }, () => files.databasePath());
    const outputs = await openTogether(paths, 6);
    for (const output of outputs) expect(output.trim().split('\n')).toEqual(paths.map(() => 'opened'));
    for (const path of paths) expect(readPragma(path, 'user_version')).toBe(SCHEMA_VERSION);
  }, 20_000);

  // `pnpm dev` runs the app under `node --watch`, which has every thread report each module
  // it imports with a message on its worker: the storage's threads must not take one for an answer.
  it('writes and searches under node --watch, whose threads post a message of their own for each module they import', async () => {
    const path = files.databasePath();
    const script = join(files.folder(), 'watched.mjs');
    writeFileSync(
      script,
      `const { SqliteStorage } = await import(${JSON.stringify(pathToFileURL(built).href)});
      const core = await import(${JSON.stringify(pathToFileURL(builtCore).href)});
      const storage = SqliteStorage.open({ path: ${JSON.stringify(path)} });
      const record = core.assembleRecord(core.workSchedule, { id: crypto.randomUUID(), text: 'Noturno 12x36', createdAt: new Date(), updatedAt: new Date() });
      await storage.repositories.workSchedules.insert(core.creationOf(core.workSchedule, record), core.uniquenessKey('Noturno 12x36'));
      const found = await storage.repositories.workSchedules.query({ search: 'noturno', order: core.CREATION_ORDER, skip: 0, limit: 10, count: true });
      await storage.close();
      console.log(JSON.stringify(found.records.map((found) => found.value)), found.total);`,
    );
    const watched = runCommand(process.execPath, ['--watch', script], {});
    try {
      await watched.printed(/Completed running|Failed running/u);
    } finally {
      await watched.stop();
    }
    expect(watched.output()).toMatch(/^\["Noturno 12x36"\] 1\n/u);
  }, 15_000);

  it('is ready while open and not after close, and closes twice without harm', async () => {
    const storage = files.open({ path: files.databasePath() });
    await expect(storage.isReady()).resolves.toBe(true);
    await storage.close();
    await expect(storage.isReady()).resolves.toBe(false);
    await expect(storage.close()).resolves.toBeUndefined();
  });

  it('discards a database it made, every file of it, and through a link the file at its target, keeping the link', async () => {
    const folder = files.folder();
    const made = files.open({ path: join(folder, 'made.db') });
    expect(made.created).toBe(true);
    await made.discard();
    mkdirSync(join(folder, 'real'));
    symlinkSync(join(folder, 'real', 'new.db'), join(folder, 'link.db'));
    const linked = files.open({ path: join(folder, 'link.db') });
    await linked.discard();
    expect(readdirSync(folder).sort()).toEqual(['link.db', 'real']);
    expect(readdirSync(join(folder, 'real'))).toEqual([]);
  });

  it('keeps, when discarded, a database it did not make, or one another connection has stored a record in since', async () => {
    const path = files.databasePath();
    const made = files.open({ path });
    const other = files.open({ path });
    expect(other.created).toBe(false);
    await other.discard();
    expect(existsSync(path)).toBe(true);
    const record = await insertSchedule(files.open({ path }), '12x36');
    await made.discard();
    expect(existsSync(path)).toBe(true);
    await expect(files.open({ path }).repositories.workSchedules.findById(record.id)).resolves.toEqual(record);
  });

  it('keeps, when discarded, a database it made that another connection has open, with nothing stored yet', async () => {
    const path = files.databasePath();
    const made = files.open({ path });
    const other = files.open({ path });
    await expect(other.isReady()).resolves.toBe(true);
    await made.discard();
    expect(existsSync(path)).toBe(true);
    const record = await insertSchedule(other, '6x1');
    await expect(other.isReady()).resolves.toBe(true);
    await expect(files.open({ path }).repositories.workSchedules.findById(record.id)).resolves.toEqual(record);
  });

  it('keeps nothing on disk for :memory:', async () => {
    const storage = files.open({ path: ':memory:' });
    expect(storage.settings()).toMatchObject({ path: ':memory:', journalMode: 'memory' });
    expect(existsSync(':memory:')).toBe(false);
  });
});
