import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contractResources, department, describeHttpContract, kindsWithDepartments, type ServiceUnderTest } from '@workplan/testing';
import { parseConfig } from './config.js';
import { startService } from './service.js';

// A third kind of record is its description and nothing else: the app given the seed's
// kinds and a test-only one serves all three by the whole HTTP contract, on memory and on
// SQLite (whose file gets the new kind's table when it opens).

const key = 'test-key-0123456789abcdef';
const readKey = 'read-key-0123456789abcdef';
const resources = [...contractResources, department];

async function serviceOn(storage: Record<string, string>): Promise<ServiceUnderTest> {
  const keys = `${key},${readKey} name=Folha role=read`;
  const env = { PORT: '0', HOST: '127.0.0.1', API_KEYS: keys, LIST_MAX_LIMIT: '50', LOG_LEVEL: 'silent', ...storage };
  const service = await startService(parseConfig(env), kindsWithDepartments);
  return { baseUrl: service.url, key, readKey, maxPageSize: 50, close: () => service.close() };
}

describeHttpContract('memory, with a third kind', () => serviceOn({ STORAGE: 'memory' }), resources);

describeHttpContract(
  'sqlite, with a third kind',
  async () => serviceOn({ STORAGE: 'sqlite', SQLITE_PATH: join(await mkdtemp(join(tmpdir(), 'workplan-third-kind-')), 'workplan.db') }),
  resources,
);
