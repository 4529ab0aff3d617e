/** @workplan/testing/mongodb: where integration tests find their MongoDB server, and a database of their own on it. */
export { ferretdbBinary, OwnFerretDb } from './own-ferretdb.js';
export { describeWithTestDatabase, NOT_RUN_MARK, withDatabaseName, type TestDatabase } from './test-database.js';
export { findTestServer, MONGO_IMAGE, type TestServer, type TestServerLookup } from './test-server.js';
