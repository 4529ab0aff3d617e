import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { consoleDirectory } from '@workplan/console';
import { backupCommand } from './backup-command.js';
import { ConfigError, parseConfig, type Config } from './config.js';
import { startService } from './service.js';

const [command, ...args] = process.argv.slice(2);

const USAGE = `usage: workplan [backup <file>]
  workplan                 serves the API and the console; its settings come from the environment
                           (PORT, STORAGE, SQLITE_PATH, API_KEYS, ...: the Configuration table of the README)
  workplan backup <file>   copies the SQLite database to <file>, also while the service runs
  workplan --help, -h      prints this
`;

/** `workplan backup <file>` copies the SQLite file; `workplan --help` prints the usage; `workplan` alone runs the service. */
async function main(): Promise<void> {
  // Before the configuration is read: the usage is for someone who may not have one yet.
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  const config = parseConfig(process.env);
  if (command === 'backup') {
    await backupCommand(config, args);
    return;
  }
  if (command !== undefined) throw new UnknownCommand(command);
  await serve(config);
}

class UnknownCommand extends Error {
  constructor(command: string) {
    super(`unknown command "${command}"`);
  }
}

/**
 * Runs the service from the environment until SIGTERM or SIGINT. Once it runs, its own
 * lines go through the service's logger (JSON in production); a start that fails is told
 * on stderr, as there is no service to log with.
 */
async function serve(config: Config): Promise<void> {
  const service = await startService(config);
  const { log } = service;
  for (const warning of config.warnings) log.warn(`warning: ${warning}`);
  log.info({ url: service.url, storage: config.storage }, `workplan listening on ${service.url} (storage: ${storageBanner(config)})`);
  // `tsc -b` alone does not build the console; `pnpm build` (and so `pnpm start`) does.
  if (existsSync(join(consoleDirectory, 'index.html'))) log.info(`console: ${service.url}/console/`);
  else log.warn(`warning: the console is not built (${consoleDirectory} has no index.html): run pnpm build`);
  if (service.runKey !== undefined) {
    log.info(`No API key configured: this run accepts KEY: ${service.runKey} (until it stops)`);
  }
  process.on('SIGHUP', () => {
    service.reloadKeys().then(
      () => { log.info({ keys: service.keys.size }, `keys reloaded: ${service.keys.size} key(s)`); },
      (error: unknown) => { log.error(`keys not reloaded, keeping the old ones: ${messageOf(error)}`); },
    );
    service.reloadWebhooks().then(
      (count) => { if (count !== undefined) log.info({ subscriptions: count }, `webhooks reloaded: ${count} subscription(s)`); },
      (error: unknown) => { log.error(`webhooks not reloaded, keeping the old subscriptions: ${messageOf(error)}`); },
    );
  });
  // Kept for the whole close, so that a second signal cannot end the process mid-way: Ctrl-C
  // under `pnpm start` brings two at once, the terminal's and the one pnpm passes on.
  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      log.info({ signal }, `${signal}: closing`);
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

/** The storage as the operator needs to see it: where the records are. */
function storageBanner(config: Config): string {
  if (config.storage === 'sqlite') return `sqlite, file ${resolve(config.sqlitePath)}`;
  if (config.storage === 'memory') return 'memory, records lost when the process ends';
  return 'mongodb';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

main().catch((error: unknown) => {
  const failed = command === 'backup' ? 'workplan backup failed' : 'workplan did not start';
  console.error(error instanceof ConfigError ? error.message : `${failed}: ${messageOf(error)}`);
  if (error instanceof UnknownCommand) process.stderr.write(USAGE);
  process.exit(1);
});
