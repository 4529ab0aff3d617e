import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { type Config } from './config.js';
import { checkedKeySet, keyEntriesOf, type ConfiguredKey } from './key-entries.js';

/** Reads the key file: one entry per line, each named by its line number; `#` starts a comment. */
export async function readKeyFile(path: string): Promise<ConfiguredKey[]> {
  const text = await readFile(path, 'utf8').catch((error: unknown) => {
    // The line names the setting, as every other refusal of a key does.
    throw new Error(`API_KEYS_FILE (${path}) cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  });
  const lines = text.split(/\r?\n/u).map((line) => line.replace(/#.*$/u, ''));
  return keyEntriesOf(lines, (index) => `API_KEYS_FILE (${path}) line ${index + 1}`);
}

/**
 * All keys the configuration names, `API_KEYS` and the key file together, checked as one set.
 * A key file that leaves the set empty is refused, as an `API_KEYS` naming no key is: at
 * start a key made for the run would stand in for the keys meant, and on a reload every
 * client would be locked out (the old keys are kept instead).
 */
export async function configuredKeys(config: Config): Promise<ConfiguredKey[]> {
  const path = config.apiKeysFile;
  const fromFile = path === undefined ? [] : await readKeyFile(path);
  const keys = checkedKeySet([...config.apiKeys, ...fromFile]);
  if (path !== undefined && keys.length === 0) throw new Error(`API_KEYS_FILE (${path}) names no key: give one key a line, or leave it unset`);
  return keys;
}

/**
 * The name of the key made for a run: what logs, metrics and the history of a record say
 * of its writes. One name for every run, since the key itself changes with each.
 */
export const RUN_KEY_NAME = 'dev';

/** A key for one run of a development server that was given none. */
export function makeRunKey(): string {
  return randomBytes(24).toString('base64url');
}
