import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { send } from '@workplan/testing';
import { describe, expect, it } from 'vitest';

// The built entry point, as `pnpm start` runs it (`pnpm test` builds first).
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, [main], { env: { PATH: process.env.PATH ?? '', ...env } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
  const printed = async (pattern: RegExp) => {
    while (!pattern.test(output)) {
      if (child.exitCode !== null) throw new Error(`exited early:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return pattern.exec(output) ?? [];
  };
  return { child, exited, printed, output: () => output };
}

describe('main', () => {
  it('prints the URL and a run key, serves, and exits 0 on SIGTERM', async () => {
    const app = run({ PORT: '0', HOST: '127.0.0.1' });
    const [, url = ''] = await app.printed(/listening on (http:\S+)/u);
    const [, key = ''] = await app.printed(/KEY: (\S+)/u);
    expect((await send(url, { path: '/api/v1/costCenters', headers: { key } })).status).toBe(200);
    app.child.kill('SIGTERM');
    const [code] = await app.exited;
    expect(code).toBe(0);
  });

  it('refuses a bad configuration with one line per setting and exit 1', async () => {
    const app = run({ PORT: 'eighty', STORAGE: 'paper' });
    const [code] = await app.exited;
    expect(code).toBe(1);
    expect(app.output()).toContain('PORT must be a whole number from 0 to 65535, not "eighty"');
    expect(app.output()).toContain('STORAGE must be memory or mongodb, not "paper"');
  });
});
