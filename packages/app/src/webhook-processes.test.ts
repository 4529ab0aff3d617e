import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { webhookProcessScenarios } from './testing/webhook-processes.js';

describe('webhooks on one SQLite file, across kill -9 and instances', () => {
  webhookProcessScenarios(() =>
    Promise.resolve({ STORAGE: 'sqlite', SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'workplan-webhook-processes-')), 'workplan.db') }),
  );
});
