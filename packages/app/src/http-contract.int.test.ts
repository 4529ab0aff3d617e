import { describeWithTestDatabase } from '@workplan/testing/mongodb';
import { describeHttpContract, untilReady } from '@workplan/testing';
import { parseConfig } from './config.js';
import { startService } from './service.js';

const key = 'mongo-test-key-0123456789';
const readKey = 'mongo-read-key-0123456789';

await describeWithTestDatabase('app on MongoDB', (database) => {
  describeHttpContract('mongodb', async () => {
    const config = parseConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      API_KEYS: `${key},${readKey} role=read name=Folha`,
      STORAGE: 'mongodb',
      MONGODB_URI: database.uri,
      // The storage's bound as long as the request's (10 s): the contract is not about a slow
      // database, and a test database shared with other tests on a busy machine is one; the
      // bound answering 503 has tests of its own (stalled-database, outage).
      MONGODB_TIMEOUT_MS: '10000',
      LIST_MAX_LIMIT: '50',
      LOG_LEVEL: 'silent',
    });
    const service = await startService(config);
    await untilReady(service.url);
    return { baseUrl: service.url, key, readKey, maxPageSize: 50, close: () => service.close() };
  });
});
