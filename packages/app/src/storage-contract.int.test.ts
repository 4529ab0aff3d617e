import { describeRecordRepositoryContract } from '@workplan/testing';
import { describeWithTestDatabase } from '@workplan/testing/mongodb';
import { useAppStorage } from './testing/app-storage.js';

const appStorage = useAppStorage();

await describeWithTestDatabase('the app on MongoDB', (database) => {
  // A database of its own for each storage, as the app names one collection per kind.
  const env = (): Record<string, string> => ({ STORAGE: 'mongodb', MONGODB_URI: database.another().uri });
  describeRecordRepositoryContract('the app on MongoDB', appStorage(env));
});
