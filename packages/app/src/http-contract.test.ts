import { describeHttpContract } from '@workplan/testing';
import { parseConfig } from './config.js';
import { startService } from './service.js';

const key = 'test-key-0123456789abcdef';

// Explicit configuration, never the environment the tests happen to run in.
describeHttpContract('memory', async () => {
  const config = parseConfig({ PORT: '0', HOST: '127.0.0.1', API_KEYS: key, STORAGE: 'memory', LIST_MAX_LIMIT: '50', LOG_LEVEL: 'silent' });
  const service = await startService(config);
  return { baseUrl: service.url, key, maxPageSize: 50, close: () => service.close() };
});
