import { type ApiKeys } from '@workplan/adapter-express';
import { seedKinds, type Kinds } from '@workplan/core';
import { Container, type ContainerModule } from 'inversify';
import { type Config, type StorageKind } from './config.js';
import { ids } from './identifiers.js';
import { coreModule, httpModule, memoryStorageModule, observabilityModule } from './modules.js';
import { webhooksModule } from './webhooks-module.js';

// Loaded on demand: an adapter's code (a driver) is only in the process that uses it.
const storageModules: Readonly<Record<StorageKind, (config: Config, kinds: Kinds) => Promise<ContainerModule>>> = {
  sqlite: async (config, kinds) => (await import('./sqlite-module.js')).sqliteStorageModule(config, kinds),
  memory: (_config, kinds) => Promise.resolve(memoryStorageModule(kinds)),
  mongodb: async (config, kinds) => (await import('./mongo-module.js')).mongoStorageModule(config, kinds),
};

/** Binds every port to the adapter the configuration names, for the kinds of record given (the seed's by default). */
export async function createContainer(config: Config, apiKeys: ApiKeys, kinds: Kinds = seedKinds): Promise<Container> {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(ids.config).toConstantValue(config);
  container.bind(ids.apiKeys).toConstantValue(apiKeys);
  container.bind(ids.kinds).toConstantValue(kinds);
  container.load(await storageModules[config.storage](config, kinds), coreModule, observabilityModule, webhooksModule, httpModule);
  return container;
}
