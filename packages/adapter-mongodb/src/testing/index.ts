/** Test-only helpers of @workplan/adapter-mongodb: where integration tests find their MongoDB, or start one of their own. */
export { ferretdbBinary, OwnFerretDb } from './own-ferretdb.js';
export { describeWithTestDatabase, withDatabaseName, type TestDatabase } from './test-database.js';
export { findTestServer, MONGO_IMAGE, type TestServer, type TestServerLookup } from './test-server.js';
