import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeHttpContract, type ServiceUnderTest } from '@workplan/testing';
import { parseConfig } from './config.js';
import { startService } from './service.js';

const key = 'test-key-0123456789abcdef';
const readKey = 'read-key-0123456789abcdef';

/** The app on a storage, from explicit configuration, never the environment the tests run in. */
async function serviceOn(storage: Record<string, string>): Promise<ServiceUnderTest> {
  const keys = `${key},${readKey} name=Folha role=read`;
  const env = { PORT: '0', HOST: '127.0.0.1', API_KEYS: keys, LIST_MAX_LIMIT: '50', LOG_LEVEL: 'silent', ...storage };
  const service = await startService(parseConfig(env));
  return { baseUrl: service.url, key, readKey, maxPageSize: 50, close: () => service.close() };
}

describeHttpContract('memory', () => serviceOn({ STORAGE: 'memory' }));

describeHttpContract('sqlite', async () =>
  serviceOn({ STORAGE: 'sqlite', SQLITE_PATH: join(await mkdtemp(join(tmpdir(), 'workplan-contract-')), 'workplan.db') }),
);
