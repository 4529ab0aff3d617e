// The composition root: the one place decorators' metadata support is loaded.
import 'reflect-metadata';
import { type ApiKeys } from '@workplan/adapter-express';
import { Container, type ContainerModule } from 'inversify';
import { type Config, type StorageKind } from './config.js';
import { ids } from './identifiers.js';
import { coreModule, httpModule, memoryStorageModule, mongoStorageModule, observabilityModule } from './modules.js';

const storageModules: Readonly<Record<StorageKind, (config: Config) => ContainerModule>> = {
  memory: () => memoryStorageModule,
  mongodb: mongoStorageModule,
};

/** Binds every port to the adapter the configuration names. */
export function createContainer(config: Config, apiKeys: ApiKeys): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(ids.config).toConstantValue(config);
  container.bind(ids.apiKeys).toConstantValue(apiKeys);
  container.load(storageModules[config.storage](config), coreModule, observabilityModule, httpModule);
  return container;
}
