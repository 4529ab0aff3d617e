import { repositoriesOf, WorkplanError, type Repositories } from '@workplan/core';
import { MongoClient, type Db } from 'mongodb';
import { MongoRecordRepository } from './mongo-repository.js';
import { type RecordDocument } from './record-document.js';
import { type ClaimDocument } from './write-claims.js';

export interface MongoStorageOptions {
  /** A MongoDB connection string, such as `mongodb://mongo:27017/workplan`. */
  readonly uri: string;
  /** The database; defaults to the one the URI names (the driver falls back to `test`). */
  readonly dbName?: string;
  /** How long an operation waits for a server to answer at all; default 2000. */
  readonly serverSelectionTimeoutMS?: number;
  /** How long opening one connection may take; default 2000. */
  readonly connectTimeoutMS?: number;
  /** How long a connection may sit silent inside one operation; default 10000. */
  readonly socketTimeoutMS?: number;
}

// Short by design: a request should get a 503 in about two seconds, not hang for the
// driver's defaults of 30 s (selection, connect) and forever (socket).
const DEFAULTS = { serverSelectionTimeoutMS: 2000, connectTimeoutMS: 2000, socketTimeoutMS: 10_000 };

/**
 * Owns one MongoClient and the repositories over it, one collection per kind of record.
 * The client connects on first use, so constructing this needs no server; `connectMongo`
 * checks there is one.
 */
export class MongoStorage {
  /** Each kind's repository, over the collection of its kind's name (`workSchedules`, `costCenters`). */
  readonly repositories: Repositories;
  readonly #indexed: MongoRecordRepository<string>[] = [];
  readonly #client: MongoClient;
  readonly #db: Db;
  readonly #pingTimeoutMS: number;

  constructor(options: MongoStorageOptions) {
    const serverSelectionTimeoutMS = options.serverSelectionTimeoutMS ?? DEFAULTS.serverSelectionTimeoutMS;
    this.#client = new MongoClient(options.uri, {
      appName: 'workplan',
      serverSelectionTimeoutMS,
      connectTimeoutMS: options.connectTimeoutMS ?? DEFAULTS.connectTimeoutMS,
      socketTimeoutMS: options.socketTimeoutMS ?? DEFAULTS.socketTimeoutMS,
    });
    this.#pingTimeoutMS = serverSelectionTimeoutMS;
    this.#db = this.#client.db(options.dbName);
    this.repositories = repositoriesOf((kind, name) => {
      const repository = new MongoRecordRepository({
        kind,
        collection: this.#db.collection<RecordDocument>(name),
        claims: this.#db.collection<ClaimDocument>(`${name}.claims`),
      });
      this.#indexed.push(repository);
      return repository;
    });
  }

  /** Creates every collection's indexes; idempotent. */
  async ensureIndexes(): Promise<void> {
    await Promise.all(this.#indexed.map((repository) => repository.ensureIndexes()));
  }

  /** Resolves when the server answers a ping in time; rejects with `storageUnavailable` otherwise. */
  async ping(): Promise<void> {
    try {
      // timeoutMS bounds the whole call, so a server that accepts but never answers
      // still fails the readiness check in time.
      await this.#db.command({ ping: 1 }, { timeoutMS: this.#pingTimeoutMS });
    } catch (error) {
      // Readiness asks only "does it answer"; any failure, even a refusal, means no.
      throw WorkplanError.storageUnavailable(error);
    }
  }

  /** Closes the client's connections; the repositories fail after this. */
  async close(): Promise<void> {
    await this.#client.close();
  }
}

/** A storage whose server answered and whose indexes exist; rejects with `storageUnavailable` when none answers. */
export async function connectMongo(options: MongoStorageOptions): Promise<MongoStorage> {
  const storage = new MongoStorage(options);
  try {
    await storage.ping();
    await storage.ensureIndexes();
    return storage;
  } catch (error) {
    await storage.close();
    throw error;
  }
}
