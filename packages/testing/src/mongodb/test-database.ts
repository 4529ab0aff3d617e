import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, describe, inject } from 'vitest';
import type {} from './global-setup.js'; // The names the global setup provides, for `inject`.

/** One test file's own database on the test server. */
export interface TestDatabase {
  /** A connection string naming this database, for code that connects by itself (the app). */
  readonly uri: string;
  readonly dbName: string;
  /** A further database on the same server, named after this one plus a number, dropped with it after the suite. */
  another(): TestDatabase;
}

const HOW_TO_RUN = 'bash scripts/test-db.sh pnpm test';

/** Ends the name of a suite skipped for want of a MongoDB server. */
export const NOT_RUN_MARK = '(not run: no MongoDB server)';

/**
 * `describe` with a fresh, randomly named database on the run's one server (which the
 * integration project's global setup finds or starts), dropped after the suite, so test
 * files can run in parallel. With no server the suite is skipped loudly, or fails under
 * `CI=true`, where skipping would hide that nothing ran.
 */
export async function describeWithTestDatabase(name: string, body: (database: TestDatabase) => void): Promise<void> {
  const serverUri = inject('mongodbUri');
  if (serverUri === undefined) {
    const reason = inject('mongodbUnavailable') ?? "no server was provided (the integration project's global setup finds one)";
    const message = `MongoDB integration tests "${name}" cannot run: ${reason}. Run them with: ${HOW_TO_RUN}`;
    if (process.env['CI'] === 'true') throw new Error(message);
    console.warn(`\n${'!'.repeat(80)}\n${message}\n${'!'.repeat(80)}\n`);
    // The suite's own tests, each reported as skipped, so the run's count of tests that did
    // not run is the real one (skip-report.ts says it again at the end of the run).
    describe.skip(`${name} ${NOT_RUN_MARK}`, () => {
      const notRun: TestDatabase = { uri: 'mongodb://127.0.0.1:9/not-run', dbName: 'not-run', another: () => notRun };
      body(notRun);
    });
    return;
  }
  const dbName = `workplan_test_${randomUUID().replaceAll('-', '')}`;
  const names = [dbName];
  const named = (name: string): TestDatabase => ({
    uri: withDatabaseName(serverUri, name),
    dbName: name,
    another: () => {
      const next = `${dbName}_${String(names.length)}`;
      names.push(next);
      return named(next);
    },
  });
  describe(name, () => {
    afterAll(async () => {
      await dropDatabases(serverUri, names);
    });
    body(named(dbName));
  });
}

/** The connection string `uri` with its database path replaced by `dbName`, options kept. */
export function withDatabaseName(uri: string, dbName: string): string {
  const parts = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(?:\/[^?]*)?(\?.*)?$/u.exec(uri);
  if (parts?.[1] === undefined) throw new Error(`not a MongoDB connection string: ${uri}`);
  return `${parts[1]}/${dbName}${parts[2] ?? ''}`;
}

async function dropDatabases(serverUri: string, names: readonly string[]): Promise<void> {
  const client = new MongoClient(serverUri, { serverSelectionTimeoutMS: 5000 });
  try {
    for (const name of names) await client.db(name).dropDatabase();
  } finally {
    await client.close();
  }
}
