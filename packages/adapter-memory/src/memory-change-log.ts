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

/** A record as a change keeps it: plain values only, so nothing a caller holds can reach it. */
interface KeptRecord {
  readonly id: string;
  readonly text: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A change as kept, numbered by `sequence`. */
interface KeptChange {
  readonly sequence: number;
  readonly kind: string;
  readonly recordId: string;
  readonly action: ChangeAction;
  readonly at: number;
  readonly by: string;
  readonly data: KeptRecord | null;
  readonly previous: KeptRecord | null;
}

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
  readonly #byRecord = new Map<string, KeptChange[]>();
  readonly #waiters = new Set<() => void>();

  /** Numbers and keeps `draft`; the caller has just carried it out. */
  append<F extends string>(draft: ChangeDraft<F>): Change<F> {
    const sequence = this.#pruned + this.#kept.length + 1;
    const kept: KeptChange = {
      sequence,
      kind: draft.kind,
      recordId: draft.recordId,
      action: draft.action,
      at: draft.at.getTime(),
      by: draft.by,
      data: draft.data === null ? null : keptRecord(kindOf(draft.kind), draft.data),
      previous: draft.previous === null ? null : keptRecord(kindOf(draft.kind), draft.previous),
    };
    this.#kept.push(kept);
    const key = recordKey(draft.kind, draft.recordId);
    const ofRecord = this.#byRecord.get(key);
    if (ofRecord === undefined) this.#byRecord.set(key, [kept]);
    else ofRecord.push(kept);
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

  async history(kind: string, recordId: string, options?: ReadOptions): Promise<Change[]> {
    options?.signal?.throwIfAborted();
    return (this.#byRecord.get(recordKey(kind, recordId)) ?? []).map(changeOf);
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
  async prune(before: Date): Promise<number> {
    const limit = before.getTime();
    let count = 0;
    while (count < this.#kept.length && (this.#kept[count] as KeptChange).at < limit) count += 1;
    if (count === 0) return 0;
    const gone = this.#kept.slice(0, count);
    this.#kept = this.#kept.slice(count);
    this.#pruned += count;
    for (const change of gone) {
      const key = recordKey(change.kind, change.recordId);
      const ofRecord = this.#byRecord.get(key) ?? [];
      ofRecord.shift();
      if (ofRecord.length === 0) this.#byRecord.delete(key);
    }
    return count;
  }
}

function recordKey(kind: string, recordId: string): string {
  return `${kind}/${recordId}`;
}

function keptRecord(kind: RecordKind<string>, record: CatalogRecord<string>): KeptRecord {
  return { id: record.id, text: record[kind.field] as string, createdAt: record.createdAt.getTime(), updatedAt: record.updatedAt.getTime() };
}

function kindOf(name: string): RecordKind<string> {
  const kind = kindNamed(name);
  if (kind === undefined) throw new TypeError(`no kind of record is named ${JSON.stringify(name)}`);
  return kind;
}

function changeOf(kept: KeptChange): Change {
  const kind = kindOf(kept.kind);
  const recordOf = (record: KeptRecord | null): CatalogRecord<string> | null =>
    record === null
      ? null
      : assembleRecord(kind, { id: record.id, text: record.text, createdAt: new Date(record.createdAt), updatedAt: new Date(record.updatedAt) });
  return {
    id: changeIdOf(kept.sequence),
    kind: kept.kind,
    recordId: kept.recordId,
    action: kept.action,
    at: new Date(kept.at),
    by: kept.by,
    data: recordOf(kept.data),
    previous: recordOf(kept.previous),
  };
}
