#!/usr/bin/env node
import { ConfigError, parseConfig } from './config.js';
import { startService } from './service.js';

/** Runs the service from the environment until SIGTERM or SIGINT. */
async function main(): Promise<void> {
  const config = parseConfig(process.env);
  for (const warning of config.warnings) console.warn(`warning: ${warning}`);
  const service = await startService(config);
  console.log(`workplan listening on ${service.url} (storage: ${config.storage})`);
  if (service.runKey !== undefined) {
    console.log(`No API key configured: this run accepts KEY: ${service.runKey}`);
  }
  process.on('SIGHUP', () => {
    service.reloadKeys().then(
      () => { console.log(`keys reloaded: ${service.keys.size} key(s)`); },
      (error: unknown) => { console.error('keys not reloaded, keeping the old ones:', messageOf(error)); },
    );
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      console.log(`${signal}: closing`);
      service.close().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('close failed:', messageOf(error));
          process.exit(1);
        },
      );
    });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : `workplan did not start: ${messageOf(error)}`);
  process.exit(1);
});
