/** @workplan/app: the composition root that wires ports to adapters and runs the HTTP service. */
export { ConfigError, parseConfig, type Config, type StorageKind } from './config.js';
export { createContainer } from './container.js';
export { startService, type RunningService } from './service.js';
