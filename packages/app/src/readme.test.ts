import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';
import { startService } from './service.js';

/** A page of the repository a reader copies examples from: the README or one of docs/. */
type Page = 'README.md' | 'docs/contract.md';

/** The first shell block under `heading` of `page`: examples a reader copies as they are. */
async function shellBlock(page: Page, heading: string): Promise<string> {
  const text = await readFile(new URL(`../../../${page}`, import.meta.url), 'utf8');
  const start = text.indexOf(`## ${heading}`);
  if (start === -1) throw new Error(`${page} has no heading "## ${heading}"`);
  const block = /```sh\n([\s\S]*?)```/u.exec(text.slice(start))?.[1];
  if (block === undefined) throw new Error(`${page} has no \`\`\`sh block under "## ${heading}"`);
  return block;
}

/**
 * Runs a page's block twice against the app on one kept SQLite file (the records of the
 * first run must not clash with the second's), resolving each run's output. Only the
 * port differs: the page's app listens on 3000, this one on a free port.
 */
async function runTwice(page: Page, heading: string): Promise<string[]> {
  const script = await shellBlock(page, heading);
  const file = join(await mkdtemp(join(tmpdir(), 'workplan-readme-')), 'workplan.db');
  const service = await startService(
    parseConfig({ PORT: '0', HOST: '127.0.0.1', API_KEYS: 'local-dev-key-0123456789', LOG_LEVEL: 'silent', SQLITE_PATH: file }),
  );
  try {
    const runnable = script.replaceAll('http://127.0.0.1:3000', service.url);
    const outputs: string[] = [];
    for (let run = 1; run <= 2; run += 1) {
      outputs.push((await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', runnable])).stdout);
    }
    return outputs;
  } finally {
    await service.close();
  }
}

describe('the curl examples of the README and docs/', () => {
  it('of the README\'s "Try it" run as written, each answering success, twice on one kept file', async () => {
    for (const stdout of await runTwice('README.md', 'Try it')) {
      // curl prints bodies back to back, so count envelopes rather than lines.
      expect(stdout.match(/\{"success":true/gu)).toHaveLength(13);
      expect(stdout).not.toContain('"success":false');
      expect(stdout).toContain('"value":"12x36 noturno"');
      expect(stdout).toMatch(/X-Total-Count: 1\r?\n/iu);
      expect(stdout).toContain('"title":"Financeiro e Controladoria"');
      // The history of the deleted work schedule, from its creation to its delete, by the key's name.
      expect(stdout).toMatch(/"action":"create".*"action":"update".*"action":"delete","at":"[^"]+","by":"[0-9a-f]{8}","data":null/u);
      expect(stdout).toMatch(/Link: <\/api\/v1\/changes\?after=\d+&limit=3>; rel="next"\r?\n/iu);
    }
  });

  it('of docs/contract.md\'s "Edits that never overwrite each other" answer 200, then 412 for the stale tag, then 304', async () => {
    for (const stdout of await runTwice('docs/contract.md', 'Edits that never overwrite each other')) {
      const [edited, stale, notModified, deleted] = stdout.trim().split(/(?<=\})(?=[{0-9])|\n/u);
      expect(JSON.parse(edited ?? '')).toMatchObject({ success: true, data: { title: 'Gente e Gestão' } });
      expect(JSON.parse(stale ?? '')).toMatchObject({ success: false, error: { code: 'PRECONDITION_FAILED' } });
      expect(notModified).toBe('304');
      expect(JSON.parse(deleted ?? '')).toEqual({ success: true });
    }
  });
});
