import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';

/**
 * The names parseConfig reads, found by handing it environments that record every name
 * asked for: whatever setting is added to config.ts shows up here without a list to update.
 */
function settingsRead(): string[] {
  const asked = new Set<string>();
  const recording = (values: Record<string, string>) =>
    new Proxy(values, {
      get(target, name) {
        if (typeof name === 'string') asked.add(name);
        return target[name as string];
      },
    });
  // Each storage, so the settings read only for one of them are asked for too.
  for (const STORAGE of ['sqlite', 'memory', 'mongodb']) {
    try {
      parseConfig(recording({ STORAGE, MONGODB_URI: 'mongodb://u@db/w', MONGODB_PASSWORD_FILE: '/nonexistent', SQLITE_PATH: 'x.db' }));
    } catch {
      // Refusals are fine here: only the names asked for matter.
    }
  }
  return [...asked].filter((name) => /^[A-Z][A-Z0-9_]*$/u.test(name)).sort();
}

const repositoryFile = (name: string) => readFileSync(new URL(`../../../${name}`, import.meta.url), 'utf8');

describe('the settings', () => {
  const read = settingsRead();

  it('are found by watching the configuration read them', () => {
    expect(read).toEqual(expect.arrayContaining(['PORT', 'API_KEYS_FILE', 'STORAGE', 'MONGODB_PASSWORD_FILE']));
  });

  it('are each listed in .env.example, which lists nothing else', () => {
    const listed = [...repositoryFile('.env.example').matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gmu)].map((match) => match[1]);
    expect([...new Set(listed)].sort()).toEqual(read);
  });

  it('are each in the Configuration table of the README, which names nothing else', () => {
    const readme = repositoryFile('README.md');
    const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
    const named = [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gmu)].map((match) => match[1]);
    expect([...named].sort()).toEqual(read);
  });

  it('in .env.example parse as a configuration the service accepts', () => {
    const active = Object.fromEntries(
      [...repositoryFile('.env.example').matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gmu)].map((match) => [match[1] ?? '', match[2] ?? '']),
    );
    expect(parseConfig(active).warnings).toEqual([]);
  });
});
