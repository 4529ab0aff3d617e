import { type MongoStorage } from '@workplan/adapter-mongodb';
import { WorkplanError, type Kinds, type RecordRepository } from '@workplan/core';
import { type StorageLifecycle } from './identifiers.js';

const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 10_000;

/**
 * Brings a MongoStorage up without holding the service back: the server listens at once
 * (`/health/live` 200, `/health/ready` 503) while this retries with backoff until the
 * indexes exist. Until then every repository call answers "storage unavailable", since
 * a write without the unique index could let a duplicate in.
 */
export class MongoConnection implements StorageLifecycle {
  #indexed = false;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(
    readonly storage: MongoStorage<Kinds>,
    private readonly warn: (message: string, cause: unknown) => void,
  ) {}

  open(): void {
    void this.#ensureIndexes(0);
  }

  async isReady(): Promise<boolean> {
    if (!this.#indexed) return false;
    return this.storage.ping().then(
      () => true,
      () => false,
    );
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    await this.storage.close();
  }

  /** Wraps a repository so it refuses work until the indexes exist. */
  gate<F extends string>(repository: RecordRepository<F>): RecordRepository<F> {
    const ready = () => {
      if (!this.#indexed) throw WorkplanError.storageUnavailable(new Error('indexes not yet made'));
    };
    // Every argument is passed on as given: dropping one, such as an update's expected
    // updatedAt, would type-check and silently turn a conditional write into a blind one.
    return {
      insert: async (...args) => { ready(); return repository.insert(...args); },
      update: async (...args) => { ready(); return repository.update(...args); },
      findById: async (...args) => { ready(); return repository.findById(...args); },
      list: async (...args) => { ready(); return repository.list(...args); },
      query: async (...args) => { ready(); return repository.query(...args); },
      count: async (...args) => { ready(); return repository.count(...args); },
      delete: async (...args) => { ready(); return repository.delete(...args); },
    };
  }

  async #ensureIndexes(attempt: number): Promise<void> {
    try {
      // A ping goes first, as in connectMongo: one call meets the server alone, so a failure
      // is the real reason (refused, wrong password), not the "Topology is closed" that
      // concurrent index builds get when the first connection fails.
      await this.storage.ping();
      await this.storage.ensureIndexes();
      this.#indexed = true;
    } catch (error) {
      if (this.#closed) return;
      const delay = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
      this.warn(`MongoDB not reachable (${messageOf(error)}); retrying in ${delay} ms`, error);
      this.#retry = setTimeout(() => void this.#ensureIndexes(attempt + 1), delay);
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.name : 'unknown error';
}
