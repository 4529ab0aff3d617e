import { repositoriesOf, seedKinds, WorkplanError, type Kinds, type Repositories, type SeedKinds } from '@workplan/core';
import { MongoClient, type Collection, type Db } from 'mongodb';
import { type ChangeDocument, type OutcomeDocument } from './change-document.js';
import { type DeletionDocument, type ProtocolStep, type PrunedDocument } from './change-protocol.js';
import { MongoChangeLog } from './mongo-change-log.js';
import { MongoDeliveryLedger, type DeliveryStateDocument } from './mongo-delivery-ledger.js';
import { MongoHitCounter, type HitDocument } from './mongo-hit-counter.js';
import { MongoRecordRepository } from './mongo-repository.js';
import { type RecordDocument } from './record-document.js';
import { DEFAULT_TIMEOUT_MS, backgroundLimitOf, withinTimeLimit } from './time-limit.js';
import { leaseOf } from './lease.js';
import { type ClaimDocument } from './write-claims.js';

export interface MongoStorageOptions<K extends Kinds = SeedKinds> {
  /** The kinds of record it keeps, a collection each under the kind's name; the seed's by default. */
  readonly kinds?: K;
  /** A MongoDB connection string, such as `mongodb://mongo:27017/workplan`. */
  readonly uri: string;
  /** The database; defaults to the one the URI names (the driver falls back to `test`). */
  readonly dbName?: string;
  /**
   * The longest one repository call (all its round trips together) or a readiness ping may
   * take before rejecting with `storageUnavailable`; default 2000. Work no request waits
   * for may take this or 60 s, whichever is longer: each call of `ensureIndexes` (an index
   * build, a read for records without folded text) and a prune of the change log.
   */
  readonly timeoutMS?: number;
  /**
   * How long a write sent may still land, after which another writer or a reader may
   * assume it did not (write claims, undecided changes, delivery versions): how long the
   * records a dead or unanswered writer was writing refuse writes, and the change feed
   * waits for its change. At least, and by default, `leaseOf(timeoutMS)`: 2 × `timeoutMS`
   * + 1 s (docs/storage.md, "The lease"); longer for a network or server known to hold
   * writes longer.
   */
  readonly leaseMs?: number;
  /**
   * Called after each step of a recorded write, and after each round of a prune: only for
   * tests that end the process between two steps, or (by throwing) end the write or the
   * prune there as a server that stops answering would.
   */
  readonly afterStep?: (step: ProtocolStep) => void;
}

/** The options of a storage: `kinds` may be left out only for the seed's kinds. */
export type MongoStorageSettings<K extends Kinds> = MongoStorageOptions<K> & (SeedKinds extends K ? unknown : { readonly kinds: K });

/**
 * Owns one MongoClient and the repositories over it, one collection per kind of record.
 * The client connects on first use, so constructing this needs no server; `connectMongo`
 * checks there is one.
 */
export class MongoStorage<K extends Kinds = SeedKinds> {
  /** Each kind's repository, over the collection of its kind's name (`workSchedules`, `costCenters`). */
  readonly repositories: Repositories<K>;
  /** The rate limiter's counts, in `rateLimitHits`, shared by every instance using the database. */
  readonly hitCounter: MongoHitCounter;
  /** The changes both repositories committed, in `changes` and the collections beside it (docs/storage.md). */
  readonly changes: MongoChangeLog;
  /** Where each webhook subscription's delivery stands, in `webhookDeliveries` (docs/storage.md). */
  readonly deliveryLedger: MongoDeliveryLedger;
  readonly #indexed: MongoRecordRepository<string>[] = [];
  readonly #client: MongoClient;
  /** A call found the client's connection to the servers closed (`ping` connects it again). */
  #topologyClosed = false;
  #closed = false;
  readonly #db: Db;
  readonly #timeoutMS: number;

  constructor(options: MongoStorageSettings<K>) {
    // Left out only where K is the seed's kinds: the parameter's type says so.
    const kinds = (options.kinds ?? seedKinds) as K;
    const timeoutMS = options.timeoutMS ?? DEFAULT_TIMEOUT_MS;
    // Each call of ours is ended by its own signal (time-limit.ts): a repository call's at
    // timeoutMS, that of work no request waits for (start-up, a prune) at its longer limit.
    // These bound what no signal reaches: connecting and the driver's heartbeat (both by
    // connectTimeoutMS), and the driver's own calls such as closing a cursor, which the
    // socket's limit bounds. That is twice the longer limit, so it never cuts one of ours
    // short: the driver has no socket limit per call.
    // Server selection gives up a little before our signal, so a server that cannot be
    // reached fails with the driver's own error, which names the cause (ECONNREFUSED, a DNS
    // failure, an authentication refusal) for the operator's log, not with our time limit.
    this.#client = new MongoClient(options.uri, {
      appName: 'workplan',
      serverSelectionTimeoutMS: Math.max(1, Math.floor(timeoutMS * 0.9)),
      connectTimeoutMS: timeoutMS,
      socketTimeoutMS: 2 * backgroundLimitOf(timeoutMS),
    });
    this.#timeoutMS = timeoutMS;
    this.#db = this.#client.db(options.dbName);
    const leaseMs = options.leaseMs ?? leaseOf(timeoutMS);
    if (!(leaseMs >= leaseOf(timeoutMS))) {
      throw new RangeError(`leaseMs must be at least ${String(leaseOf(timeoutMS))} (2 × timeoutMS + 1000), not ${String(leaseMs)}`);
    }
    const recordCollections = new Map<string, Collection<RecordDocument>>();
    this.changes = new MongoChangeLog({
      collections: {
        changes: this.#db.collection<ChangeDocument>('changes'),
        outcomes: this.#db.collection<OutcomeDocument>('changes.outcomes'),
        deletions: this.#db.collection<DeletionDocument>('changes.deletions'),
        pruned: this.#db.collection<PrunedDocument>('changes.pruned'),
      },
      records: (kind) => {
        const collection = recordCollections.get(kind);
        if (collection === undefined) throw new TypeError(`no collection keeps the kind ${JSON.stringify(kind)}`);
        return collection;
      },
      kinds,
      timeoutMS,
      leaseMs,
      afterStep: options.afterStep,
    });
    this.repositories = repositoriesOf(kinds, (kind, name) => {
      const collection = this.#db.collection<RecordDocument>(name);
      recordCollections.set(kind.name, collection);
      const repository = new MongoRecordRepository({
        kind,
        collection,
        claims: this.#db.collection<ClaimDocument>(`${name}.claims`),
        protocol: this.changes.protocol,
        timeoutMS,
        leaseMs,
      });
      this.#indexed.push(repository);
      return repository;
    });
    this.hitCounter = new MongoHitCounter(this.#db.collection<HitDocument>('rateLimitHits'), timeoutMS);
    this.deliveryLedger = new MongoDeliveryLedger({
      collection: this.#db.collection<DeliveryStateDocument>('webhookDeliveries'),
      timeoutMS,
      leaseMs,
    });
  }

  /** Creates every collection's indexes; idempotent. */
  async ensureIndexes(): Promise<void> {
    await Promise.all([
      ...this.#indexed.map((repository) => repository.ensureIndexes()),
      this.changes.ensureIndexes(),
      this.hitCounter.ensureIndexes(),
      this.deliveryLedger.ensureIndexes(),
    ]);
  }

  /** Resolves when the server answers a ping in time; rejects with `storageUnavailable` otherwise. */
  async ping(): Promise<void> {
    try {
      // Bounded as a whole, so a server that accepts but never answers still fails the
      // readiness check in time.
      await withinTimeLimit(this.#timeoutMS, undefined, async (signal) => {
        // A first connection that failed leaves the client closed, and every call then fails
        // at once: it connects again (not once this storage is closed), or the service would
        // never come up when its database was down at start.
        if (this.#topologyClosed && !this.#closed) await this.#client.connect();
        this.#topologyClosed = false;
        await this.#db.command({ ping: 1 }, { signal });
      });
    } catch (error) {
      if (isTopologyClosed(error)) this.#topologyClosed = true;
      // Readiness asks only "does it answer"; any failure, even a refusal, means no.
      throw WorkplanError.storageUnavailable(error);
    }
  }

  /**
   * Closes the client's connections; the repositories fail after this. Resolves within
   * `timeoutMS` even when the server does not answer: the driver's close then waits on the
   * server (ending the cursors still open) for as long as the socket's limit, and what it
   * still waits on ends there, unawaited.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const closing = this.#client.close();
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => { timer = setTimeout(resolve, this.#timeoutMS); });
    try {
      await Promise.race([closing, waited]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function isTopologyClosed(error: unknown): boolean {
  return error instanceof Error && (error.name === 'MongoTopologyClosedError' || isTopologyClosed(error.cause));
}

/** A storage whose server answered and whose indexes exist; rejects with `storageUnavailable` when none answers. */
export async function connectMongo<K extends Kinds = SeedKinds>(options: MongoStorageSettings<K>): Promise<MongoStorage<K>> {
  const storage = new MongoStorage<K>(options);
  try {
    await storage.ping();
    await storage.ensureIndexes();
    return storage;
  } catch (error) {
    await storage.close();
    throw error;
  }
}
