import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { creationOf, updateOf, uniquenessKey, workSchedule, WorkplanError, type CatalogRecord, type Change, type ChangeLog } from '@workplan/core';
import { describeWithTestDatabase } from '@workplan/testing/mongodb';
import { buildRecord } from '@workplan/testing';
import { expect, it, vi } from 'vitest';
import { MongoClient } from 'mongodb';
import { type ProtocolStep } from './change-protocol.js';
import { DEFAULT_TIMEOUT_MS } from './time-limit.js';
import { useTestStorages } from './test-support/test-storages.js';

// The built packages, as another process of an app would load them (`pnpm test` builds first).
const adapter = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const core = fileURLToPath(new URL('../../core/dist/index.js', import.meta.url));

// Every storage of these tests, and each killed writer, has the service's default time limit
// and so the lease it derives (lease.ts): the stall measured is the one a service would have.
const TIMEOUT_MS = DEFAULT_TIMEOUT_MS;
// What a write sent may still take to land: its call's time, as long again, and the clocks' allowance.
const LEASE_MS = 2 * TIMEOUT_MS + 1000;
// How much later than the lease a follower may see the feed move on a busy machine: its
// polls, and the reads and writes of a dozen databases at once.
const FOLLOW_SLACK_MS = 3000;
// How many writers are killed, and their databases followed, at once.
const KILLED_AT_ONCE = 4;

type Action = 'create' | 'update' | 'delete';

/** A write killed after one of its steps, and whether it counts once its change is decided. */
interface KilledWrite {
  readonly action: Action;
  readonly step: ProtocolStep;
  readonly commits: boolean;
}

/** Every boundary between two steps of each kind of write (before the first, nothing was written). */
const KILLED_WRITES: readonly KilledWrite[] = [
  { action: 'create', step: 'numbered', commits: false },
  { action: 'create', step: 'written', commits: true },
  { action: 'create', step: 'decided', commits: true },
  { action: 'update', step: 'claimed', commits: false },
  { action: 'update', step: 'numbered', commits: false },
  { action: 'update', step: 'written', commits: true },
  { action: 'update', step: 'decided', commits: true },
  { action: 'delete', step: 'claimed', commits: false },
  { action: 'delete', step: 'numbered', commits: false },
  // The stamp shows the deletion was under way with the record as expected: it is carried out.
  { action: 'delete', step: 'stamped', commits: true },
  { action: 'delete', step: 'marked', commits: true },
  { action: 'delete', step: 'removed', commits: true },
  { action: 'delete', step: 'decided', commits: true },
];

/** Runs `action` on `record` in a process of its own that ends itself with SIGKILL after `step`; resolves the signal it ended with. */
async function writeKilledAfter(uri: string, dbName: string, write: KilledWrite, record: CatalogRecord<'value'>): Promise<string | null> {
  const script = `
    const core = await import(${JSON.stringify(core)});
    const { MongoStorage } = await import(${JSON.stringify(adapter)});
    // The test made the indexes: a start's own would only load the machine.
    const storage = new MongoStorage({
      uri: ${JSON.stringify(uri)}, dbName: ${JSON.stringify(dbName)}, timeoutMS: ${String(TIMEOUT_MS)},
      afterStep: (step) => { if (step === ${JSON.stringify(write.step)}) process.kill(process.pid, 'SIGKILL'); },
    });
    // Connected first, as a service is before it takes writes: the write's calls are its own.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await storage.ping();
        break;
      } catch (error) {
        if (attempt === 5) throw error;
      }
    }
    const parts = ${JSON.stringify(record)};
    const record = core.assembleRecord(core.workSchedule, { ...parts, text: parts.value, createdAt: new Date(parts.createdAt), updatedAt: new Date(parts.updatedAt) });
    const repository = storage.repositories.workSchedules;
    const action = ${JSON.stringify(write.action)};
    if (action === 'create') await repository.insert(core.creationOf(core.workSchedule, record), 'morto');
    const edited = { ...record, value: 'editado', updatedAt: new Date(record.updatedAt.getTime() + 1) };
    if (action === 'update') await repository.update(core.updateOf(core.workSchedule, record, edited), 'editado');
    if (action === 'delete') await repository.delete(core.deletionOf(core.workSchedule, record, new Date()));
    console.log('the write ended without being killed');
    process.exit(1);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'inherit', 'inherit'] });
  const [, signal] = (await once(child, 'exit')) as [number | null, string | null];
  return signal;
}

/** A process that creates, updates and deletes records of its own through `dbName` until it is killed. */
function writeUntilKilled(uri: string, dbName: string): ChildProcess {
  const script = `
    const core = await import(${JSON.stringify(core)});
    const { MongoStorage } = await import(${JSON.stringify(adapter)});
    const storage = new MongoStorage({ uri: ${JSON.stringify(uri)}, dbName: ${JSON.stringify(dbName)}, timeoutMS: ${String(TIMEOUT_MS)} });
    const repository = storage.repositories.workSchedules;
    const kind = core.workSchedule;
    const ids = core.createUuidV7Generator();
    for (let i = 0; ; i += 1) {
      const at = new Date();
      const record = core.assembleRecord(kind, { id: ids.next(), text: 'filho ' + i, createdAt: at, updatedAt: at });
      await repository.insert(core.creationOf(kind, record, 'filho'), 'filho ' + i);
      const edited = { ...record, value: 'filho editado ' + i, updatedAt: new Date(at.getTime() + 1) };
      await repository.update(core.updateOf(kind, record, edited, 'filho'), 'filho editado ' + i);
      if (i % 2 === 0) await repository.delete(core.deletionOf(kind, edited, new Date(), 'filho'));
    }`;
  return spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'inherit', 'inherit'] });
}

/** Follows `log` from the start while `writing()` holds, then to its end, into `followed`; waits `waitMs` when it is at the end, if given. */
async function follow(log: ChangeLog, writing: () => boolean, pageSize: number, waitMs?: number, followed: Change[] = []): Promise<Change[]> {
  let after = 0;
  for (let done = false; !done; ) {
    done = !writing();
    const page = await log.read(after, pageSize);
    followed.push(...page);
    after = Number(page.at(-1)?.id ?? after);
    if (page.length === pageSize) done = false;
    else if (!done && waitMs !== undefined) await log.waitAfter(after, waitMs);
  }
  return followed;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What `call` resolves, or `undefined` when it is answered 503 (a killed writer's claim, or a busy machine), for the caller to try again. */
async function unlessUnavailable<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (WorkplanError.is(error) && error.kind === 'storageUnavailable') return undefined;
    throw error;
  }
}

await describeWithTestDatabase('The MongoDB change protocol', (database) => {
  const storages = useTestStorages(database);
  const killTestOptions = { timeoutMS: TIMEOUT_MS };

  /**
   * Kills a writer of `write` after its step, then, as a service would go on: creates
   * another record and follows the feed until it shows (the feed's stall), while writing the
   * killed record again from what it holds, 503 or not, until it takes the write or is gone
   * (the record's stall); both from the kill, and what the feed and the record then hold.
   * The feed is read once before the killed record is written again, which may decide the
   * killed change at once (its stamp shows it landed).
   */
  async function killedAndFollowed(write: KilledWrite) {
    const { storage, dbName } = await storages.fresh(killTestOptions);
    const repository = storage.repositories.workSchedules;
    const record = buildRecord(workSchedule, { text: 'morto' });
    const seeded = write.action === 'create' ? [] : [await repository.insert(creationOf(workSchedule, record), 'morto')];
    const signal = await writeKilledAfter(database.uri, dbName, write, record);
    const killedAt = performance.now();
    // A write made after the killed one numbered its change: it must wait for it, not pass it.
    const after = await repository.insert(creationOf(workSchedule, buildRecord(workSchedule, { text: 'outro' })), uniquenessKey('outro'));
    const blocked = await storage.changes.read(0, 10);
    const rewriting = (async () => {
      for (;;) {
        const outcome = await unlessUnavailable(async () => {
          const current = await repository.findById(record.id);
          if (current === undefined) return { rewrite: undefined };
          const edited = { ...current, value: 'depois', updatedAt: new Date(current.updatedAt.getTime() + 1) };
          const rewrite = await repository.update(updateOf(workSchedule, current, edited, 'depois'), 'depois');
          return rewrite === undefined ? undefined : { rewrite };
        });
        if (outcome !== undefined) return { recordStallMs: performance.now() - killedAt, ...outcome };
        await sleep(50);
      }
    })();
    const shows = (changes: readonly Change[] | undefined) => changes?.some((change) => change.id === after.id) === true;
    while (!shows(await unlessUnavailable(() => storage.changes.read(0, 10)))) await sleep(50);
    const feedStallMs = performance.now() - killedAt;
    const { recordStallMs, rewrite } = await rewriting;
    const feed = await storage.changes.read(0, 10);
    return { write, storage, record, seeded, signal, after, blocked, feed, found: await repository.findById(record.id), rewrite, feedStallMs, recordStallMs };
  }

  it('kill -9 between any two steps of a write: within the lease its change is committed exactly when its write is there, every acknowledged write is in the feed once and in order, and the feed and the record take writes again', { timeout: 120_000 }, async () => {
    // A few at a time: a dozen writers at once on a busy machine outlast the time limit.
    const cases = [];
    for (let start = 0; start < KILLED_WRITES.length; start += KILLED_AT_ONCE) {
      cases.push(...(await Promise.all(KILLED_WRITES.slice(start, start + KILLED_AT_ONCE).map((write) => killedAndFollowed(write)))));
    }
    const stalls = cases.map(({ write, feedStallMs, recordStallMs }) => ({ killed: `${write.action} after ${write.step}`, feedStallMs, recordStallMs }));
    // The figures the docs report (docs/storage.md, "The lease"): printed, not asserted beyond the bound.
    console.info(`lease ${String(LEASE_MS)} ms; stalls after kill -9:\n${stalls.map((stall) => JSON.stringify(stall)).join('\n')}`);
    for (const { write, storage, record, seeded, signal, after, blocked, feed, found, rewrite, feedStallMs, recordStallMs } of cases) {
      const label = `${write.action} killed after ${write.step}`;
      expect(signal, label).toBe('SIGKILL');
      const numbered = write.step !== 'claimed';
      // Until the lease ends the killed write's change is undecided: the feed stops before it.
      if (numbered && write.step !== 'decided') expect(blocked, label).toEqual(seeded);
      expect(feedStallMs, label).toBeLessThan(LEASE_MS + FOLLOW_SLACK_MS);
      expect(recordStallMs, label).toBeLessThan(LEASE_MS + FOLLOW_SLACK_MS);
      const killed = feed.filter((change) => change.recordId === record.id && change.action === write.action && change.by !== 'depois');
      expect(killed, label).toHaveLength(write.commits ? 1 : 0);
      // Each acknowledged write once, in number order: the seed, the killed one if it counts, the later create, the rewrite.
      const acknowledged = [...seeded, ...killed, after, ...(rewrite === undefined ? [] : [rewrite])];
      expect(feed, label).toEqual(acknowledged.sort((a, b) => Number(a.id) - Number(b.id)));
      expect(Number(after.id), label).toBeGreaterThan(Math.max(0, ...killed.map((change) => Number(change.id))));
      // The record's own changes, chained: each one's `previous` is the one before's `data`, and the last is the record.
      const own = [...seeded, ...killed, ...(rewrite === undefined ? [] : [rewrite])];
      own.forEach((change, n) => {
        if (n > 0 && change.action !== 'create') expect(change.previous, label).toEqual(own[n - 1]?.data);
      });
      expect(found, label).toEqual(own.at(-1)?.action === 'delete' ? undefined : own.at(-1)?.data);
      const written = { create: own.some((change) => change.action === 'create'), update: own.some((change) => change.data?.value === 'editado'), delete: found === undefined }[write.action];
      expect(written, label).toBe(write.commits);
      await expect(storage.changes.history(workSchedule.name, record.id, 0, 1000), label).resolves.toEqual(own);
    }
  });

  it('two instances writing the same records while a reader on each follows the feed: each change once, in order, none skipped, a record’s in the order they happened', async () => {
    const { storage: first, dbName } = await storages.fresh();
    const second = await storages.again(dbName);
    const records = await Promise.all(
      ['a', 'b', 'c'].map(async (text) => {
        const record = buildRecord(workSchedule, { text });
        await first.repositories.workSchedules.insert(creationOf(workSchedule, record), text);
        return record;
      }),
    );
    const committed: Change<'value'>[] = [];
    let writing = true;
    const writer = async (storage: typeof first, name: string) => {
      const repository = storage.repositories.workSchedules;
      for (let round = 0; round < 12; round += 1) {
        const record = records[round % records.length];
        if (record === undefined) continue;
        const current = await repository.findById(record.id);
        if (current === undefined) continue;
        const text = `${record.value} ${name} ${String(round)}`;
        const edited = { ...current, value: text, updatedAt: new Date(Math.max(Date.now(), current.updatedAt.getTime() + 1)) };
        const change = await repository.update({ kind: workSchedule.name, recordId: current.id, action: 'update', at: edited.updatedAt, by: name, data: edited, previous: current }, text);
        if (change !== undefined) committed.push(change);
      }
    };
    const writers = Promise.all([writer(first, 'um'), writer(first, 'dois'), writer(second, 'tres'), writer(second, 'quatro')]).finally(() => {
      writing = false;
    });
    // Read again at once while the writers write, to meet changes still undecided.
    const [, followed, alsoFollowed] = await Promise.all([writers, follow(first.changes, () => writing, 5), follow(second.changes, () => writing, 5)]);

    expect(alsoFollowed).toEqual(followed);
    const numbers = followed.map((change) => Number(change.id));
    expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
    expect(followed).toEqual(await first.changes.read(0, 100));
    expect(followed.filter((change) => change.action === 'update')).toEqual([...committed].sort((a, b) => Number(a.id) - Number(b.id)));
    for (const record of records) {
      const own = followed.filter((change) => change.recordId === record.id);
      for (const [i, change] of own.entries()) {
        if (i > 0) expect(change.previous).toEqual(own[i - 1]?.data);
      }
      expect(own.at(-1)?.data).toEqual(await second.repositories.workSchedules.findById(record.id));
    }
  });

  it('a writer that finds its record stamped with a change still undecided decides it first, so the feed need not wait for the lease', async () => {
    const { storage, dbName } = await storages.fresh();
    const repository = storage.repositories.workSchedules;
    const record = buildRecord(workSchedule, { text: 'morto' });
    const created = await repository.insert(creationOf(workSchedule, record), 'morto');
    await expect(writeKilledAfter(database.uri, dbName, { action: 'update', step: 'written', commits: true }, record)).resolves.toBe('SIGKILL');
    await expect(storage.changes.read(0, 10)).resolves.toEqual([created]);

    const current = await repository.findById(record.id);
    if (current === undefined) throw new Error('the killed update took the record away');
    const edited = { ...current, value: 'de novo', updatedAt: new Date(current.updatedAt.getTime() + 1) };
    const change = await repository.update(updateOf(workSchedule, current, edited), 'de novo');
    expect(change?.id).toBe('3');
    await expect(storage.changes.read(0, 10)).resolves.toEqual([created, expect.objectContaining({ id: '2', data: current }), change]);
  });

  it('prunes a decided prefix, answers cursorExpired behind it, and never numbers a change with a number it removed', async () => {
    const { storage: first, dbName } = await storages.fresh();
    const second = await storages.again(dbName);
    const insert = (storage: typeof first, text: string) =>
      storage.repositories.workSchedules.insert(creationOf(workSchedule, buildRecord(workSchedule, { text })), text);
    // The second instance takes number 1, so it next guesses 2.
    const a = await insert(second, 'a');
    await insert(first, 'b');
    await insert(first, 'c');

    await expect(first.changes.prune(new Date(Date.now() + 60_000))).resolves.toBe(3);
    await expect(second.changes.read(1, 10)).rejects.toSatisfy((error: unknown) => WorkplanError.is(error) && error.kind === 'cursorExpired');
    await expect(second.changes.read(0, 10)).resolves.toEqual([]);
    await expect(first.changes.history(workSchedule.name, a.recordId, 0, 1000)).resolves.toEqual([]);
    const d = await insert(second, 'd');
    expect(d.id).toBe('4');
    await expect(first.changes.read(3, 10)).resolves.toEqual([d]);
    await expect(first.changes.read(0, 10)).resolves.toEqual([d]);
    await expect(first.changes.prune(new Date(0))).resolves.toBe(0);
  });

  it('removes at its next prune what a prune cut short left behind its mark, though nothing more has aged, and shows it nowhere meanwhile', async () => {
    const { storage, dbName } = await storages.fresh();
    for (const text of ['a', 'b']) await storage.repositories.workSchedules.insert(creationOf(workSchedule, buildRecord(workSchedule, { text })), text);
    const client = await MongoClient.connect(database.uri);
    try {
      const changes = client.db(dbName).collection<{ _id: number; recordId: string }>('changes');
      const outcomes = client.db(dbName).collection<{ _id: number }>('changes.outcomes');
      const first = await changes.findOne({ _id: 1 });
      const outcome = await outcomes.findOne({ _id: 1 });
      if (first === null || outcome === null) throw new Error('no change numbered 1');
      await expect(storage.changes.prune(new Date(Date.now() + 60_000))).resolves.toBe(2);
      // As a prune cut short after its mark (a signal, a lost connection) leaves it.
      await changes.insertOne(first);
      await outcomes.insertOne(outcome);
      // Behind the mark it is gone already, for a record's history as for the feed.
      await expect(storage.changes.history(workSchedule.name, first.recordId, 0, 1000)).resolves.toEqual([]);
      await expect(storage.changes.read(0, 10)).resolves.toEqual([]);
      await expect(storage.changes.prune(new Date(0))).resolves.toBe(0);
      await expect(changes.countDocuments({})).resolves.toBe(0);
      await expect(outcomes.countDocuments({})).resolves.toBe(0);
    } finally {
      await client.close();
    }
  });

  it('keeps the rounds a prune finished when it is cut short, and removes the rest at the next prune', async () => {
    let cutShort = true;
    const { storage } = await storages.fresh({
      afterStep: (step) => {
        if (step === 'pruned' && cutShort) throw new Error('the connection is lost after a round');
      },
    });
    // More than a round of a prune (500 changes).
    const total = 600;
    for (let made = 0; made < total; made += 20) {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          storage.repositories.workSchedules.insert(creationOf(workSchedule, buildRecord(workSchedule, { text: `r${made + i}` })), `r${made + i}`),
        ),
      );
    }
    const aged = new Date(Date.now() + 60_000);

    await expect(storage.changes.prune(aged)).rejects.toSatisfy((error: unknown) => WorkplanError.is(error) && error.kind === 'storageUnavailable');
    const left = await storage.changes.read(0, 1000);
    expect(left.length).toBeGreaterThan(0);
    expect(left.length).toBeLessThan(total);
    expect(left.at(-1)?.id).toBe(String(total));

    cutShort = false;
    await expect(storage.changes.prune(aged)).resolves.toBe(left.length);
    await expect(storage.changes.read(0, 1000)).resolves.toEqual([]);
  });

  it('wakes a reader waiting on one instance within a poll of a change committed through another, and at once for its own', async () => {
    const { storage: first, dbName } = await storages.fresh();
    const second = await storages.again(dbName);
    const insert = (storage: typeof first, text: string) =>
      storage.repositories.workSchedules.insert(creationOf(workSchedule, buildRecord(workSchedule, { text })), text);

    // Given longer than the test may run: only a poll of the database can wake it in time.
    const fromAnother = first.changes.waitAfter(0, 60_000);
    await sleep(200);
    const change = await insert(second, 'outra');
    await fromAnother;

    // On a clock that stands, no poll comes by itself, and the wait never runs out: woken at
    // all, the waiter was woken by its own instance's commit (an order, not a time).
    const ownWaited = first.changes.waitAfter(Number(change.id), 60_000);
    await sleep(200);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await insert(first, 'propria');
      await ownWaited;
    } finally {
      vi.useRealTimers();
    }
  });
  it('an instance killed while it writes, beside one that goes on and a reader that follows: every record stands as its last change says, each change read once', async () => {
    const { storage, dbName } = await storages.fresh(killTestOptions);
    const repository = storage.repositories.workSchedules;
    const child = writeUntilKilled(database.uri, dbName);
    const exited = once(child, 'exit');
    let writing = true;
    const write = async () => {
      for (let i = 0; writing; i += 1) {
        const record = buildRecord(workSchedule, { text: `pai ${String(i)}` });
        await repository.insert(creationOf(workSchedule, record, 'pai'), uniquenessKey(record.value));
      }
    };
    const followed: Change[] = [];
    const killing = (async () => {
      // Killed while it writes: once its writes are being read, however long its start took on a busy machine.
      await expect.poll(() => followed.some((change) => change.by === 'filho'), { timeout: 60_000, interval: 20 }).toBe(true);
      child.kill('SIGKILL');
      await exited;
      // Past the lease of whatever the killed instance left undecided.
      await sleep(LEASE_MS + 300);
      writing = false;
    })();
    await Promise.all([killing, write(), follow(storage.changes, () => writing, 20, 200, followed)]);

    expect(child.signalCode).toBe('SIGKILL');
    const numbers = followed.map((change) => Number(change.id));
    expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
    expect(followed).toEqual(await storage.changes.read(0, 10_000));
    expect(followed.filter((change) => change.by === 'filho').length).toBeGreaterThan(0);
    const byRecord = Map.groupBy(followed, (change) => change.recordId);
    for (const [recordId, changes] of byRecord) {
      expect(changes[0]?.action, recordId).toBe('create');
      changes.forEach((change, n) => {
        if (n > 0) expect(change.previous, recordId).toEqual(changes[n - 1]?.data);
      });
      await expect(repository.findById(recordId), recordId).resolves.toEqual(changes.at(-1)?.data ?? undefined);
    }
    const stored = await repository.list({ skip: 0, limit: 10_000 });
    expect(stored.filter((record) => !byRecord.has(record.id))).toEqual([]);
  }, 90_000);
  it('a write that got no answer after its step landed has its change committed a moment later, without waiting for the lease; one whose step did not land waits for it', async () => {
    let failAfter: ProtocolStep | undefined;
    const { storage } = await storages.fresh({
      ...killTestOptions,
      afterStep: (step) => {
        if (step !== failAfter) return;
        failAfter = undefined;
        throw new Error('the server stopped answering');
      },
    });
    const repository = storage.repositories.workSchedules;
    const isUnavailable = (error: unknown) => WorkplanError.is(error) && error.kind === 'storageUnavailable';
    const landed = buildRecord(workSchedule, { text: 'chegou' });
    failAfter = 'written';
    await expect(repository.insert(creationOf(workSchedule, landed), 'chegou')).rejects.toSatisfy(isUnavailable);
    await expect(storage.changes.read(0, 10)).resolves.toEqual([]);
    await sleep(1500);
    const [created] = await storage.changes.read(0, 10);
    expect(created).toMatchObject({ id: '1', action: 'create', data: landed });

    const lost = buildRecord(workSchedule, { text: 'perdida' });
    failAfter = 'numbered';
    await expect(repository.insert(creationOf(workSchedule, lost), 'perdida')).rejects.toSatisfy(isUnavailable);
    const later = await repository.insert(creationOf(workSchedule, buildRecord(workSchedule, { text: 'depois' })), 'depois');
    await sleep(1500);
    await expect(storage.changes.read(0, 10)).resolves.toEqual([created]);
    await sleep(LEASE_MS);
    await expect(storage.changes.read(0, 10)).resolves.toEqual([created, later]);
    await expect(repository.findById(lost.id)).resolves.toBeUndefined();
  });
});
