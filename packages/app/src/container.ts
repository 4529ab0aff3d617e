import { type ApiKeys } from '@workplan/adapter-express';
import { Container, type ContainerModule } from 'inversify';
import { type Config, type StorageKind } from './config.js';
import { ids } from './identifiers.js';
import { coreModule, httpModule, memoryStorageModule, observabilityModule } from './modules.js';
import { webhooksModule } from './webhooks-module.js';

// Loaded on demand: an adapter's code (a driver) is only in the process that uses it.
const storageModules: Readonly<Record<StorageKind, (config: Config) => Promise<ContainerModule>>> = {
  sqlite: async (config) => (await import('./sqlite-module.js')).sqliteStorageModule(config),
  memory: () => Promise.resolve(memoryStorageModule),
  mongodb: async (config) => (await import('./mongo-module.js')).mongoStorageModule(config),
};

/** Binds every port to the adapter the configuration names. */
export async function createContainer(config: Config, apiKeys: ApiKeys): Promise<Container> {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(ids.config).toConstantValue(config);
  container.bind(ids.apiKeys).toConstantValue(apiKeys);
  container.load(await storageModules[config.storage](config), coreModule, observabilityModule, webhooksModule, httpModule);
  return container;
}
