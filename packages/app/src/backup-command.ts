import { resolve } from 'node:path';
import { backupDatabase } from '@workplan/adapter-sqlite';
import { type Config } from './config.js';

/**
 * Writes a consistent copy of the SQLite file to `target` while the service may be serving
 * from it (SQLite's online backup, page by page, through a connection of its own).
 */
export async function backupCommand(config: Config, args: readonly string[]): Promise<void> {
  const [target, ...rest] = args;
  if (target === undefined || rest.length > 0) throw new Error('usage: workplan backup <file>');
  if (config.storage !== 'sqlite') throw new Error(`backup copies a SQLite file; STORAGE is ${config.storage}`);
  await backupDatabase(config.sqlitePath, target);
  console.log(`backed up ${resolve(config.sqlitePath)} to ${resolve(target)}`);
}
