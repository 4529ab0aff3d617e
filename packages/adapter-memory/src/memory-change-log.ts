import { changeIdOf, numbered, sequenceOf, WorkplanError, type Change, type ChangeDraft, type ChangeLog, type ReadOptions } from '@workplan/core';

/**
 * The changes of every repository of a process, in memory, in the order they were made.
 * A repository appends its change in the same step as its write (nothing is awaited
 * between them), so changes are numbered in commit order and none can commit late.
 * Changes are copied in and out, so nothing a caller holds can reach what is kept.
 */
export class MemoryChangeLog implements ChangeLog {
  /** The changes kept, oldest first, numbered without a gap: the one numbered `s` is at `s - 1 - this.#pruned`. */
  #kept: Change[] = [];
  /** How many changes `prune` removed: every change up to that number is gone. */
  #pruned = 0;
  readonly #waiters = new Set<() => void>();

  /** Numbers and keeps `draft`; the caller has just carried it out. */
  append<F extends string>(draft: ChangeDraft<F>): Change<F> {
    const change = numbered(draft, this.#pruned + this.#kept.length + 1);
    this.#kept.push(structuredClone(change));
    for (const wake of this.#waiters) wake();
    return change;
  }

  async read(after: number, limit: number, options?: ReadOptions): Promise<Change[]> {
    options?.signal?.throwIfAborted();
    // 0 reads from the first change kept, whatever was pruned: a new follower's start.
    if (after > 0 && after < this.#pruned) throw WorkplanError.cursorExpired(changeIdOf(after));
    const start = Math.max(after - this.#pruned, 0);
    return structuredClone(this.#kept.slice(start, start + limit));
  }

  async history(kind: string, recordId: string, after: number, limit: number, options?: ReadOptions): Promise<Change[]> {
    options?.signal?.throwIfAborted();
    if (after > 0 && after < this.#pruned) throw WorkplanError.cursorExpired(changeIdOf(after));
    const ofRecord = this.#kept.filter((change) => change.kind === kind && change.recordId === recordId && sequenceOf(change.id) > after);
    return structuredClone(ofRecord.slice(0, limit));
  }

  async waitAfter(after: number, waitMs: number, options?: ReadOptions): Promise<void> {
    const signal = options?.signal;
    if (this.#pruned + this.#kept.length > after || signal?.aborted === true) return;
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

  /** Removes the oldest changes while they were made before `before`, so numbers stay without a gap. */
  async prune(before: Date, options?: ReadOptions): Promise<number> {
    options?.signal?.throwIfAborted();
    const firstKept = this.#kept.findIndex((change) => change.at.getTime() >= before.getTime());
    const count = firstKept === -1 ? this.#kept.length : firstKept;
    this.#kept = this.#kept.slice(count);
    this.#pruned += count;
    return count;
  }
}
