// Its own module, like MongoDB's: node:sqlite is loaded only by a process that uses it.
import { SqliteStorage } from '@workplan/adapter-sqlite';
import { type Kinds } from '@workplan/core';
import { ContainerModule } from 'inversify';
import { type Logger } from 'pino';
import { type Config } from './config.js';
import { ids, type StorageLifecycle } from './identifiers.js';
import { lifecycleLogger } from './logger.js';

/**
 * The embedded default: one SQLite file for both repositories, their change log and the
 * webhooks' delivery ledger, created or migrated before the service listens, so a file it
 * cannot use stops the start with one line.
 */
export function sqliteStorageModule(config: Config, kinds: Kinds): ContainerModule {
  // The logger is made after the file is opened; the storage tells of nothing before it serves.
  let log: Logger | undefined;
  const storage = SqliteStorage.open({
    kinds,
    path: config.sqlitePath,
    synchronous: config.sqliteSynchronous,
    report: ({ level, message, cause }) => log?.[level](cause === undefined ? {} : { err: cause }, message),
    busyTimeoutMs: config.sqliteBusyTimeoutMs,
  });
  return new ContainerModule(({ bind }) => {
    bind(ids.repositories).toConstantValue(storage.repositories);
    bind(ids.changes).toConstantValue(storage.changes);
    bind(ids.hitCounter).toConstantValue(storage.hitCounter);
    bind(ids.deliveryLedger).toConstantValue(storage.deliveryLedger);
    bind(ids.storage).toResolvedValue(
      (logger): StorageLifecycle => {
        log = logger;
        return {
          // A file deleted while a former run served would come back new and empty: said at every start that makes one.
          open: () => {
            if (storage.created) lifecycleLogger(logger).warn(`warning: ${storage.path} did not exist: a new, empty database was made there`);
          },
          isReady: () => storage.isReady(),
          stopWrites: () => {
            storage.stopWrites();
          },
          close: () => storage.close(),
          discardStart: () => storage.discard(),
        };
      },
      [ids.logger],
    );
  });
}
