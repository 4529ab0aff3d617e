import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';
import { startService } from './service.js';

const readmeUrl = new URL('../../../README.md', import.meta.url);

/** The shell block under "## Try it": the examples a newcomer copies first. */
async function tryItBlock(): Promise<string> {
  const readme = await readFile(readmeUrl, 'utf8');
  const section = readme.slice(readme.indexOf('## Try it'));
  const block = /```sh\n([\s\S]*?)```/u.exec(section)?.[1];
  if (block === undefined) throw new Error('README.md has no ```sh block under "## Try it"');
  return block;
}

describe('README', () => {
  it('runs every curl example of "Try it" as written, each answering success, twice on one kept file', async () => {
    const script = await tryItBlock();
    const file = join(await mkdtemp(join(tmpdir(), 'workplan-readme-')), 'workplan.db');
    const service = await startService(
      parseConfig({ PORT: '0', HOST: '127.0.0.1', API_KEYS: 'local-dev-key-0123456789', LOG_LEVEL: 'silent', SQLITE_PATH: file }),
    );
    try {
      // Only the port differs: the README's app listens on 3000, this one on a free port.
      const runnable = script.replaceAll('http://127.0.0.1:3000', service.url);
      // Twice: the records of the first run are kept, and must not clash with the second's.
      for (let run = 1; run <= 2; run += 1) {
        const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', runnable]);
        // curl prints bodies back to back, so count envelopes rather than lines.
        expect(stdout.match(/\{"success":true/gu)).toHaveLength(10);
        expect(stdout).not.toContain('"success":false');
        expect(stdout).toContain('"value":"12x36 noturno"');
        expect(stdout).toContain('"title":"Financeiro e Controladoria"');
      }
    } finally {
      await service.close();
    }
  });
});
