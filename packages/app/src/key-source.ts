import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { keyList, type Config } from './config.js';

/** Reads the key file: one key per line, `#` starts a comment. */
export async function readKeyFile(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8');
  const lines = text.split(/\r?\n/u).map((line) => line.replace(/#.*$/u, ''));
  return keyList(lines, `API_KEYS_FILE (${path})`);
}

/** All keys the configuration names: `API_KEYS` and the key file together. */
export async function configuredKeys(config: Config): Promise<string[]> {
  const fromFile = config.apiKeysFile === undefined ? [] : await readKeyFile(config.apiKeysFile);
  return [...config.apiKeys, ...fromFile];
}

/** A key for one run of a development server that was given none. */
export function makeRunKey(): string {
  return randomBytes(24).toString('base64url');
}
