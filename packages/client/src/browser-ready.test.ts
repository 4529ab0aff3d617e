import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

// The client runs in browsers (the console uses it) as well as in Node: fetch, AbortSignal
// and URL only. Its behaviour against the service is tested in packages/app/src/client.test.ts.
describe('what a browser needs', () => {
  it('imports nothing but its own modules: no Node built-in, no package', async () => {
    const sources = (await readdir(new URL('.', import.meta.url))).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    expect(sources.length).toBeGreaterThan(3);
    for (const file of sources) {
      const text = await readFile(new URL(file, import.meta.url), 'utf8');
      const imported = [...text.matchAll(/\bfrom\s+'([^']+)'|\bimport\s*\(\s*'([^']+)'/gu)].map((m) => m[1] ?? m[2]);
      expect(imported.filter((specifier) => !specifier?.startsWith('./')), file).toEqual([]);
      expect(text, file).not.toMatch(/\b(?:process|Buffer|require)\b/u);
    }
  });
});
