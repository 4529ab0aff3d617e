import {
  assembleRecord,
  numbered,
  kindNamed,
  WorkplanError,
  changeIdOf,
  type CatalogRecord,
  type Change,
  type ChangeAction,
  type ChangeDraft,
  type ChangeLog,
  type ReadOptions,
  type RecordKind,
} from '@workplan/core';

/**
 * A change as kept: one JSON text of `PackedChange`. The log keeps every change until a
 * prune, so it soon holds most of the heap's objects; V8's collector visits each object
 * kept, and each of the five or so a change took as objects made every request slower as
 * the log grew: the plain list missed its target against the build before search and sort
 * (docs/benchmarks/README.md). A text has nothing in it to visit, and is never changed.
 */
type KeptChange = string;

/**
 * A change's values, in order. Its records are the record it names (their `id` is its
 * `recordId`), created once (one `createdAt`): only their text and `updatedAt` differ.
 */
type PackedChange = [
  sequence: number,
  at: number,
  action: ChangeAction,
  by: string,
  kind: string,
  recordId: string,
  createdAt: number,
  text: string | null,
  updatedAt: number | null,
  previousText: string | null,
  previousUpdatedAt: number | null,
];

/**
 * The changes of every repository of a process, in memory, in the order they were made.
 * A repository appends its change in the same step as its write (nothing is awaited
 * between them), so changes are numbered in commit order and none can commit late.
 */
export class MemoryChangeLog implements ChangeLog {
  /** The kept changes: the one numbered `s` is at `s - 1 - this.#pruned`. */
  #kept: KeptChange[] = [];
  /** The highest number removed by `prune`: every change up to it is gone. */
  #pruned = 0;
  /** Each record's changes, oldest first, by kind and then record id. */
  readonly #byRecord = new Map<string, Map<string, KeptChange[]>>();
  readonly #waiters = new Set<() => void>();

  /** Numbers and keeps `draft`; the caller has just carried it out. */
  append<F extends string>(draft: ChangeDraft<F>): Change<F> {
    const sequence = this.#pruned + this.#kept.length + 1;
    const kind = kindOf(draft.kind);
    const { data, previous } = draft;
    const record = data ?? previous;
    if (record === null) throw new TypeError('a change has a record before it or after it');
    const packed: PackedChange = [
      sequence,
      draft.at.getTime(),
      draft.action,
      draft.by,
      draft.kind,
      draft.recordId,
      record.createdAt.getTime(),
      data === null ? null : textOf(kind, data),
      data === null ? null : data.updatedAt.getTime(),
      previous === null ? null : textOf(kind, previous),
      previous === null ? null : previous.updatedAt.getTime(),
    ];
    const kept = JSON.stringify(packed);
    this.#kept.push(kept);
    this.#keepOfRecord(draft.kind, draft.recordId, kept);
    for (const wake of this.#waiters) wake();
    return numbered(draft, sequence);
  }

  async read(after: number, limit: number, options?: ReadOptions): Promise<Change[]> {
    options?.signal?.throwIfAborted();
    // 0 reads from the first change kept, whatever was pruned: a new follower's start.
    if (after > 0 && after < this.#pruned) throw WorkplanError.cursorExpired(changeIdOf(after));
    const start = Math.max(after - this.#pruned, 0);
    return this.#kept.slice(start, start + limit).map(changeOf);
  }

  async history(kind: string, recordId: string, after: number, limit: number, options?: ReadOptions): Promise<Change[]> {
    options?.signal?.throwIfAborted();
    if (after > 0 && after < this.#pruned) throw WorkplanError.cursorExpired(changeIdOf(after));
    const ofRecord = this.#byRecord.get(kind)?.get(recordId) ?? [];
    const start = firstAfter(ofRecord, after);
    return ofRecord.slice(start, start + limit).map(changeOf);
  }

  async waitAfter(after: number, waitMs: number, options?: ReadOptions): Promise<void> {
    if (this.#pruned + this.#kept.length > after || options?.signal?.aborted === true) return;
    const signal = options?.signal;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, waitMs);
      this.#waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /** Removes the oldest changes while they were made before `before`, so numbers stay contiguous. */
  async prune(before: Date, options?: ReadOptions): Promise<number> {
    options?.signal?.throwIfAborted();
    const limit = before.getTime();
    let count = 0;
    for (; count < this.#kept.length; count += 1) {
      const [, at, , , kind, recordId] = unpack(this.#kept[count] as KeptChange);
      if (at >= limit) break;
      this.#forgetOldestOfRecord(kind, recordId);
    }
    if (count === 0) return 0;
    this.#kept = this.#kept.slice(count);
    this.#pruned += count;
    return count;
  }

  #keepOfRecord(kind: string, recordId: string, kept: KeptChange): void {
    let ofKind = this.#byRecord.get(kind);
    if (ofKind === undefined) this.#byRecord.set(kind, (ofKind = new Map<string, KeptChange[]>()));
    const ofRecord = ofKind.get(recordId);
    // A list made with its first change holds just that one, where `[]` then a push would hold room for 17.
    if (ofRecord === undefined) ofKind.set(recordId, [kept]);
    else ofRecord.push(kept);
  }

  #forgetOldestOfRecord(kind: string, recordId: string): void {
    const ofKind = this.#byRecord.get(kind);
    const ofRecord = ofKind?.get(recordId);
    ofRecord?.shift();
    if (ofRecord?.length === 0) ofKind?.delete(recordId);
  }
}

/** Where the first change numbered after `after` is in `kept` (oldest first): a binary search, reading a few numbers only. */
function firstAfter(kept: readonly KeptChange[], after: number): number {
  let low = 0;
  let high = kept.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sequenceOfKept(kept[middle] as KeptChange) <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The number of a kept change, read from the start of its text (`[sequence,...`) without parsing the rest. */
function sequenceOfKept(kept: KeptChange): number {
  return Number.parseInt(kept.slice(1, kept.indexOf(',')), 10);
}

function textOf(kind: RecordKind<string>, record: CatalogRecord<string>): string {
  return record[kind.field] as string;
}

function unpack(kept: KeptChange): PackedChange {
  return JSON.parse(kept) as PackedChange;
}

function kindOf(name: string): RecordKind<string> {
  const kind = kindNamed(name);
  if (kind === undefined) throw new TypeError(`no kind of record is named ${JSON.stringify(name)}`);
  return kind;
}

function changeOf(kept: KeptChange): Change {
  const [sequence, at, action, by, kindName, recordId, createdAt, text, updatedAt, previousText, previousUpdatedAt] = unpack(kept);
  const kind = kindOf(kindName);
  const recordOf = (recordText: string | null, recordUpdatedAt: number | null): CatalogRecord<string> | null =>
    recordText === null || recordUpdatedAt === null
      ? null
      : assembleRecord(kind, { id: recordId, text: recordText, createdAt: new Date(createdAt), updatedAt: new Date(recordUpdatedAt) });
  return {
    id: changeIdOf(sequence),
    kind: kindName,
    recordId,
    action,
    at: new Date(at),
    by,
    data: recordOf(text, updatedAt),
    previous: recordOf(previousText, previousUpdatedAt),
  };
}
