import { describeRecordRepositoryContract } from '@workplan/testing';
import { describeWithTestDatabase, withDatabaseName } from '@workplan/testing/mongodb';
import { MongoClient } from 'mongodb';
import { afterAll } from 'vitest';
import { useAppStorage } from './testing/app-storage.js';

const appStorage = useAppStorage();

await describeWithTestDatabase('the app on MongoDB', (database) => {
  // A database of its own for each repository, as the app names one collection per kind.
  const names: string[] = [];
  afterAll(async () => {
    const client = await MongoClient.connect(database.uri);
    try {
      for (const name of names) await client.db(name).dropDatabase();
    } finally {
      await client.close();
    }
  });
  const env = (): Record<string, string> => {
    const name = `${database.dbName}_${names.length + 1}`;
    names.push(name);
    return { STORAGE: 'mongodb', MONGODB_URI: withDatabaseName(database.uri, name) };
  };
  describeRecordRepositoryContract('the app on MongoDB', appStorage(env));
});
