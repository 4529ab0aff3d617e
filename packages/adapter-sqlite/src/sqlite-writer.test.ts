import { creationOf, uniquenessKey, workSchedule, WorkplanError } from '@workplan/core';
import { buildRecord } from '@workplan/testing';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from './sqlite-errors.js';
import { ThreadWriter } from './sqlite-writer.js';
import { type WriteStep } from './write-statements.js';
import { getOn, runOn } from './test-support/single-writes.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

/** A file with one table, and a writer thread on it closed after the test. */
function threadOnNewFile(script?: URL): { path: string; writer: ThreadWriter } {
  const path = files.databasePath();
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL; CREATE TABLE things (name TEXT PRIMARY KEY, size INTEGER NOT NULL)');
  db.close();
  const writer = new ThreadWriter({ path, synchronous: 'NORMAL', busyTimeoutMs: 2000 }, { script });
  files.closeAfter(writer);
  return { path, writer };
}

// The built package, as a program of a library user would load it (`pnpm test` builds first).
const built = fileURLToPath(new URL('../dist/index.js', import.meta.url));

describe('ThreadWriter', () => {
  it('writes on a connection of its own, answering changes and rows as arrays, in the order sent', async () => {
    const { path, writer } = threadOnNewFile();
    const sent = Array.from({ length: 50 }, (_, n) => runOn(writer, 'INSERT INTO things (name, size) VALUES (?, ?)', [`t${n}`, n]));
    expect((await Promise.all(sent)).map((result) => result?.changes)).toEqual(sent.map(() => 1));
    await expect(getOn(writer, 'UPDATE things SET size = size + 1 WHERE name = ? RETURNING name, size', ['t7'])).resolves.toEqual({
      changes: 0,
      row: ['t7', 8],
    });
    await expect(runOn(writer, 'DELETE FROM things WHERE size > ?', [40])).resolves.toMatchObject({ changes: 9 });

    const reader = new DatabaseSync(path, { readOnly: true });
    files.closeAfter(reader);
    expect(reader.prepare('SELECT count(*) AS n, max(size) AS top FROM things').get()).toEqual({ n: 41, top: 40 });
  });

  it('runs the steps of a write in one transaction, each only while the one before changed a row', async () => {
    const { path, writer } = threadOnNewFile();
    const insert = (name: string, size: number): WriteStep => ({ method: 'run', sql: 'INSERT INTO things (name, size) VALUES (?, ?)', params: [name, size] });
    const grow = (name: string): WriteStep => ({ method: 'get', sql: 'UPDATE things SET size = size + 1 WHERE name = ? RETURNING size', params: [name] });
    await expect(writer.write([insert('a', 1), grow('a'), insert('after a', 0)])).resolves.toEqual([
      { changes: 1, row: undefined },
      { changes: 0, row: [2] },
      { changes: 1, row: undefined },
    ]);
    // A step that changes nothing ends the write: the steps after it do not run.
    await expect(writer.write([grow('none'), insert('after none', 0)])).resolves.toEqual([{ changes: 0, row: undefined }]);
    // A step that fails undoes the steps before it.
    await expect(writer.write([insert('b', 1), insert('a', 9)])).rejects.toMatchObject({ errcode: 1555 });
    const reader = new DatabaseSync(path, { readOnly: true });
    files.closeAfter(reader);
    expect(reader.prepare('SELECT name, size FROM things ORDER BY name').all()).toEqual([
      { name: 'a', size: 2 },
      { name: 'after a', size: 0 },
    ]);
  });

  it("rejects with node:sqlite's own codes, so a clash is still told from an outage", async () => {
    const { writer } = threadOnNewFile();
    await runOn(writer, 'INSERT INTO things (name, size) VALUES (?, ?)', ['same', 1]);
    const clash = await runOn(writer, 'INSERT INTO things (name, size) VALUES (?, ?)', ['same', 2]).catch((error: unknown) => error);
    expect(clash).toBeInstanceOf(Error);
    expect(clash).toMatchObject({ code: 'ERR_SQLITE_ERROR', errcode: 1555 }); // SQLITE_CONSTRAINT_PRIMARYKEY
    expect(isUniqueViolation(clash)).toBe(false);
    const unique = await runOn(writer, 'CREATE UNIQUE INDEX sizes ON things (size)', []).then(() =>
      runOn(writer, 'INSERT INTO things (name, size) VALUES (?, ?)', ['other', 1]).catch((error: unknown) => error),
    );
    expect(isUniqueViolation(unique)).toBe(true);
  });

  it('answers the writes sent before close, and refuses those after; closing resolves once the thread has ended', async () => {
    const { writer } = threadOnNewFile();
    const before = runOn(writer, 'INSERT INTO things (name, size) VALUES (?, ?)', ['last', 1]);
    let answered = false;
    void before.then(() => (answered = true));
    await writer.close();
    expect(answered).toBe(true);
    await expect(before).resolves.toMatchObject({ changes: 1 });
    await expect(runOn(writer, 'INSERT INTO things (name, size) VALUES (?, ?)', ['late', 1])).rejects.toThrow('the storage is closed');
    expect(writer.isWorking()).toBe(false);
  });

  it('makes an outage of a thread that cannot start, such as one that cannot open its connection', async () => {
    const failing = join(files.folder(), 'failing-thread.mjs');
    writeFileSync(failing, "throw new Error('unable to open database file');\n");
    const { writer } = threadOnNewFile(pathToFileURL(failing));
    await expect(runOn(writer, 'INSERT INTO things (name, size) VALUES (?, ?)', ['lost', 1])).rejects.toSatisfy(
      (error: unknown) => WorkplanError.is(error) && error.kind === 'storageUnavailable',
    );
    expect(writer.isWorking()).toBe(false);
  });

  it('makes an outage of a thread that ends: the write waiting, and every one after', async () => {
    const quitting = join(files.folder(), 'quitting-thread.mjs');
    writeFileSync(quitting, "import { workerData } from 'node:worker_threads';\nworkerData.port.once('message', () => process.exit(1));\n");
    const { writer } = threadOnNewFile(pathToFileURL(quitting));
    const outage = (error: unknown): boolean => WorkplanError.is(error) && error.kind === 'storageUnavailable';
    await expect(runOn(writer, 'INSERT INTO things (name, size) VALUES (?, ?)', ['lost', 1])).rejects.toSatisfy(outage);
    await expect(runOn(writer, 'INSERT INTO things (name, size) VALUES (?, ?)', ['after', 1])).rejects.toSatisfy(outage);
    expect(writer.isWorking()).toBe(false);
  });
});

describe('a storage on a file', () => {
  it('keeps serving reads while a write waits for a lock: the write waits in its thread, not on the event loop', async () => {
    const path = files.databasePath();
    const storage = files.open({ path });
    const holder = new DatabaseSync(path);
    files.closeAfter(holder);
    holder.exec('BEGIN IMMEDIATE');
    const record = buildRecord(workSchedule, { text: '12x36' });
    const writeBesideReads = async (): Promise<void> => {
      const write = storage.repositories.workSchedules.insert(creationOf(workSchedule, record), uniquenessKey('12x36'));
      for (let n = 0; n < 10; n += 1) {
        await expect(storage.repositories.workSchedules.list({ skip: 0, limit: 10 })).resolves.toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      holder.exec('COMMIT');
      await write;
    };
    // Written on the event loop, the insert would hold it for the whole busy timeout (2 s),
    // the lock being let go only by code that then cannot run: the reads would wait, and the
    // write would fail as busy. It commits, so it waited in its thread (an order, not a time).
    await writeBesideReads();
    await expect(storage.repositories.workSchedules.findById(record.id)).resolves.toMatchObject({ value: '12x36' });
  });

  it('keeps a program alive while a write is on its way, and not once none is', async () => {
    const path = files.databasePath();
    const program = `
      const { SqliteStorage } = await import(${JSON.stringify(built)});
      const storage = SqliteStorage.open({ path: ${JSON.stringify(path)} });
      // Nor may a storage that never wrote keep it.
      SqliteStorage.open({ path: ${JSON.stringify(`${path}-idle`)} });
      const creation = (n, value) => {
        const data = { id: '0190d3f4-0000-7000-8000-00000000000' + n, value, createdAt: new Date(0), updatedAt: new Date(0) };
        return { kind: 'workSchedule', recordId: data.id, action: 'create', at: data.updatedAt, by: 'system', data, previous: null };
      };
      await storage.repositories.workSchedules.insert(creation(1, '12x36'), '12x36');
      // The thread is up and idle now: only the second write's answer can keep the program.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await storage.repositories.workSchedules.insert(creation(2, '6x1'), '6x1');
      console.log('written');`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', program]);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const killer = setTimeout(() => child.kill(), 10_000);
    const [code] = (await once(child, 'exit')) as [number | null];
    clearTimeout(killer);
    expect({ code, output: output.trim() }).toEqual({ code: 0, output: 'written' });
    const reader = new DatabaseSync(path, { readOnly: true });
    files.closeAfter(reader);
    expect(reader.prepare('SELECT "text" FROM work_schedules ORDER BY id').all()).toEqual([{ text: '12x36' }, { text: '6x1' }]);
  }, 15_000);
});
