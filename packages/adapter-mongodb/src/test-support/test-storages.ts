import { type TestDatabase } from '@workplan/testing/mongodb';
import { afterEach } from 'vitest';
import { connectMongo, type MongoStorage, type MongoStorageOptions } from '../mongo-storage.js';

// The tests' storages check behaviour, not time limits: files run side by side on a busy
// machine, where FerretDB may take longer than the app's default to answer.
const GENEROUS_TIMEOUT_MS = 10_000;

/** Options of the storages a test makes, the database aside. */
export type TestStorageOptions = Omit<MongoStorageOptions, 'uri' | 'dbName'>;

/**
 * Call in the body of `describeWithTestDatabase`: `fresh()` connects a storage to a new,
 * empty database of the file's own (its name plus a number), and `again(storage)` a second
 * storage to the same database, as another instance of the app would be. Storages are
 * closed after each test, their databases dropped after the file.
 */
export function useTestStorages(database: TestDatabase): {
  fresh(options?: TestStorageOptions): Promise<{ storage: MongoStorage; dbName: string }>;
  again(dbName: string, options?: TestStorageOptions): Promise<MongoStorage>;
} {
  const open: MongoStorage[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((storage) => storage.close()));
  });
  const again = async (dbName: string, options: TestStorageOptions = {}): Promise<MongoStorage> => {
    const storage = await connectMongo({ uri: database.uri, dbName, timeoutMS: GENEROUS_TIMEOUT_MS, ...options });
    open.push(storage);
    return storage;
  };
  return {
    async fresh(options) {
      const { dbName } = database.another();
      return { storage: await again(dbName, options), dbName };
    },
    again,
  };
}
