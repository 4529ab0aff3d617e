// Its own module, like MongoDB's: node:sqlite is loaded only by a process that uses it.
import { SqliteStorage } from '@workplan/adapter-sqlite';
import { ContainerModule } from 'inversify';
import { type Config } from './config.js';
import { ids } from './identifiers.js';

/**
 * The embedded default: one SQLite file for both repositories, created or migrated before
 * the service listens, so a file it cannot use stops the start with one line.
 */
export function sqliteStorageModule(config: Config): ContainerModule {
  const storage = SqliteStorage.open({
    path: config.sqlitePath,
    synchronous: config.sqliteSynchronous,
    busyTimeoutMs: config.sqliteBusyTimeoutMs,
  });
  return new ContainerModule(({ bind }) => {
    bind(ids.repositories).toConstantValue(storage.repositories);
    bind(ids.hitCounter).toConstantValue(storage.hitCounter);
    bind(ids.storage).toConstantValue({
      open: () => undefined,
      isReady: () => storage.isReady(),
      close: () => storage.close(),
    });
  });
}
