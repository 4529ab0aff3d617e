import { type RecordKind } from '@workplan/core';
import { type TestDatabase } from '@workplan/testing/mongodb';
import { MongoClient, type Collection, type Db } from 'mongodb';
import { afterAll, beforeAll } from 'vitest';
import { MongoChangeLog } from '../mongo-change-log.js';
import { type RecordDocument } from '../record-document.js';
import { type ClaimDocument } from '../write-claims.js';

/** A kind's collection that no other test touches, and the claims collection and change log beside it. */
export interface TestCollections {
  readonly name: string;
  readonly collection: Collection<RecordDocument>;
  readonly claims: Collection<ClaimDocument>;
  readonly changes: MongoChangeLog;
}

/** The change log of the records in `collection`, in collections named after it. */
export function changeLogBeside(db: Db, name: string, collection: Collection<RecordDocument>): MongoChangeLog {
  return new MongoChangeLog({
    collections: {
      changes: db.collection(`${name}.changes`),
      outcomes: db.collection(`${name}.changes.outcomes`),
      deletions: db.collection(`${name}.changes.deletions`),
      pruned: db.collection(`${name}.changes.pruned`),
    },
    records: () => collection,
    timeoutMS: 2000,
    leaseMs: 30_000,
  });
}

/**
 * Call in the body of `describeWithTestDatabase`: a client on the file's database, opened
 * before its tests and closed after them, and fresh collections on it for each test.
 */
export function useTestCollections(database: TestDatabase): { db(): Db; fresh(kind: RecordKind<string>): TestCollections } {
  let client: MongoClient | undefined;
  let made = 0;
  beforeAll(async () => {
    client = await MongoClient.connect(database.uri);
  });
  afterAll(async () => {
    await client?.close();
  });
  const db = (): Db => {
    if (client === undefined) throw new Error('the test database is used before its client connected (call inside a test)');
    return client.db();
  };
  return {
    db,
    fresh(kind) {
      made += 1;
      const name = `${kind.name}_${String(made)}`;
      const collection = db().collection<RecordDocument>(name);
      return { name, collection, claims: db().collection<ClaimDocument>(`${name}.claims`), changes: changeLogBeside(db(), name, collection) };
    },
  };
}
