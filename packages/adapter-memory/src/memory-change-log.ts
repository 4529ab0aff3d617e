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
  /** Each record's changes, oldest first, by kind and then record id. */
  readonly #byRecord = new Map<string, Map<string, KeptChange[]>>();
  readonly #waiters = new Set<() => void>();

  /** Numbers and keeps `draft`; the caller has just carried it out. */
  append<F extends string>(draft: ChangeDraft<F>): Change<F> {
    const sequence = this.#pruned + this.#kept.length + 1;
    const kind = kindOf(draft.kind);
    const ofRecord = this.#changesOf(draft.kind, draft.recordId);
    const kept: KeptChange = {
      sequence,
      kind: draft.kind,
      recordId: draft.recordId,
      action: draft.action,
      at: draft.at.getTime(),
      by: draft.by,
      data: draft.data === null ? null : keptRecord(kind, draft.data),
      previous: draft.previous === null ? null : keptState(kind, draft.previous, ofRecord.at(-1)?.data ?? null),
    };
    this.#kept.push(kept);
    ofRecord.push(kept);
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
    return (this.#byRecord.get(kind)?.get(recordId) ?? []).map(changeOf);
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
      const ofKind = this.#byRecord.get(change.kind);
      const ofRecord = ofKind?.get(change.recordId) ?? [];
      ofRecord.shift();
      if (ofRecord.length === 0) ofKind?.delete(change.recordId);
    }
    return count;
  }

  /** The list a record's changes are kept in, made empty the first time. */
  #changesOf(kind: string, recordId: string): KeptChange[] {
    let ofKind = this.#byRecord.get(kind);
    if (ofKind === undefined) this.#byRecord.set(kind, (ofKind = new Map<string, KeptChange[]>()));
    let ofRecord = ofKind.get(recordId);
    if (ofRecord === undefined) ofKind.set(recordId, (ofRecord = []));
    return ofRecord;
  }
}

function keptRecord(kind: RecordKind<string>, record: CatalogRecord<string>): KeptRecord {
  return { id: record.id, text: record[kind.field] as string, createdAt: record.createdAt.getTime(), updatedAt: record.updatedAt.getTime() };
}

/**
 * The state a change found, as kept: the one the record's last change left when it is that
 * state (as it is unless a change was pruned or the record predates the log), shared rather
 * than copied. Kept records are never changed, so sharing one is safe, and every change
 * kept forever (no retention set) then costs one record less.
 */
function keptState(kind: RecordKind<string>, previous: CatalogRecord<string>, lastKept: KeptRecord | null): KeptRecord {
  const same =
    lastKept !== null &&
    lastKept.updatedAt === previous.updatedAt.getTime() &&
    lastKept.createdAt === previous.createdAt.getTime() &&
    lastKept.text === previous[kind.field];
  return same ? lastKept : keptRecord(kind, previous);
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
