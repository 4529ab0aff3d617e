// Its own module, loaded only when the configuration names MongoDB: the driver alone adds
// memory to the process (docs/benchmarks/README.md), which the memory store has no use for.
import { MongoStorage } from '@workplan/adapter-mongodb';
import { wrapRepositories, type Kinds } from '@workplan/core';
import { ContainerModule, type ServiceIdentifier } from 'inversify';
import { mongodbCallMs, type Config } from './config.js';
import { ids } from './identifiers.js';
import { MongoConnection } from './mongo-connection.js';
import { describeFailure } from './mongo-failure.js';

/** MongoDB: one client for both repositories and their change log, the repositories gated until their indexes exist. */
export function mongoStorageModule(config: Config, kinds: Kinds): ContainerModule {
  return new ContainerModule(({ bind }) => {
    const storage = new MongoStorage({
      kinds,
      uri: config.mongodbUri ?? '',
      // No storage call outlives the request that made it: its time limit, which finds and
      // lists also send to the server as maxTimeMS, ends by the request's deadline.
      timeoutMS: mongodbCallMs(config),
      leaseMs: config.mongodbWriteLeaseMs,
    });
    const connection = Symbol('MongoConnection') as ServiceIdentifier<MongoConnection>;
    bind(connection)
      .toResolvedValue(
        // The warning names the failure; its cause (code and message, any password
        // redacted) goes on the same line.
        (logger) => new MongoConnection(storage, (message, cause) => { logger.warn({ cause: describeFailure(cause) }, message); }),
        [ids.logger],
      )
      .inSingletonScope();
    bind(ids.storage).toService(connection);
    bind(ids.hitCounter).toConstantValue(storage.hitCounter);
    // Not gated, as the change log: its one index only speeds its reads up.
    bind(ids.deliveryLedger).toConstantValue(storage.deliveryLedger);
    // Not gated: a read of the log needs no index to be right, and fails as an outage while
    // the server cannot be reached, as a gated call would.
    bind(ids.changes).toConstantValue(storage.changes);
    bind(ids.repositories).toResolvedValue(
      (c) => wrapRepositories(storage.repositories, (repository) => c.gate(repository)),
      [connection],
    );
  });
}
