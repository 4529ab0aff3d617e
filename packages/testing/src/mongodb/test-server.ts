/** A MongoDB server the integration tests may use, and how to let it go. */
export interface TestServer {
  readonly uri: string;
  readonly description: string;
  stop(): Promise<void>;
}

export type TestServerLookup =
  | { readonly found: true; readonly server: TestServer }
  | { readonly found: false; readonly reason: string };

/** The image a throwaway server runs when Docker is the source; the same line as docker-compose.yml. */
export const MONGO_IMAGE = 'mongo:8.0';

/**
 * Finds a server, in this order: `MONGODB_URI` (as `scripts/test-db.sh` exports it);
 * else a Testcontainers MongoDB when a Docker engine answers; else none, with the reason.
 */
export async function findTestServer(): Promise<TestServerLookup> {
  const fromEnvironment = process.env['MONGODB_URI'];
  if (fromEnvironment !== undefined && fromEnvironment !== '') {
    const server = { uri: fromEnvironment, description: `MONGODB_URI (${fromEnvironment})`, stop: async () => {} };
    return { found: true, server };
  }
  // Loaded only here: Testcontainers pulls in a Docker client the MONGODB_URI path never needs.
  const { getContainerRuntimeClient } = await import('testcontainers');
  try {
    await getContainerRuntimeClient();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { found: false, reason: `MONGODB_URI is not set and no Docker engine answered (${why})` };
  }
  return { found: true, server: await startContainer() };
}

async function startContainer(): Promise<TestServer> {
  const { MongoDBContainer } = await import('@testcontainers/mongodb');
  const container = await new MongoDBContainer(MONGO_IMAGE).start();
  // The container is a one-node replica set that advertises its own host name, which
  // is unknown outside Docker: talk to the mapped port directly instead.
  const uri = `${container.getConnectionString()}/?directConnection=true`;
  return {
    uri,
    description: `a Testcontainers ${MONGO_IMAGE} (${uri})`,
    stop: async () => {
      await container.stop();
    },
  };
}
