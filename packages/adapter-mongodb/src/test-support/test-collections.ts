import { type RecordKind } from '@workplan/core';
import { type TestDatabase } from '@workplan/testing/mongodb';
import { MongoClient, type Collection, type Db } from 'mongodb';
import { afterAll, beforeAll } from 'vitest';
import { type RecordDocument } from '../record-document.js';
import { type ClaimDocument } from '../write-claims.js';

/** A kind's collection that no other test touches, and the claims collection beside it. */
export interface TestCollections {
  readonly name: string;
  readonly collection: Collection<RecordDocument>;
  readonly claims: Collection<ClaimDocument>;
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
      return { name, collection: db().collection<RecordDocument>(name), claims: db().collection<ClaimDocument>(`${name}.claims`) };
    },
  };
}
