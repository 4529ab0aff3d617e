import { type TestProject } from 'vitest/node';
import { findTestServer } from './test-server.js';

// The integration project's global setup: one MongoDB server for the whole run, found or
// started before the first test file and stopped after the last. Each file takes its own
// database on it (`describeWithTestDatabase`), so files still run in parallel.

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's MongoDB server, as a connection string; absent when there is none. */
    mongodbUri?: string;
    /** Why there is no server, when there is none. */
    mongodbUnavailable?: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const lookup = await findTestServer();
  if (!lookup.found) {
    // Not thrown here: the suites that need the server say so, and the others still run.
    project.provide('mongodbUnavailable', lookup.reason);
    return async () => {};
  }
  project.provide('mongodbUri', lookup.server.uri);
  return () => lookup.server.stop();
}
