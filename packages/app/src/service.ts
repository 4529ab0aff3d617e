import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { ApiKeys, createHttpServer, drainable, keyEntryOf } from '@workplan/adapter-express';
import { seedKinds, type Kinds } from '@workplan/core';
import { type Logger } from 'pino';
import { keepChangesFor } from './change-retention.js';
import { type Config } from './config.js';
import { createContainer } from './container.js';
import { ids } from './identifiers.js';
import { configuredKeys, makeRunKey, RUN_KEY_NAME } from './key-source.js';
import { lifecycleLogger } from './logger.js';
import { type ReloadedFile } from './metrics.js';
import { configuredSubscriptions } from './webhooks-module.js';

// Writes still waiting to begin this long before SHUTDOWN_TIMEOUT_MS are refused, so their
// 503s are written before the drain cuts the connections left.
const WRITE_STOP_LEAD_MS = 500;
// How long after that the write stop waits for the webhook deliveries to record where they stopped.
const WEBHOOK_RECORD_MS = 250;

/** A started service: where it listens, its keys, and how to stop it. */
export interface RunningService {
  readonly url: string;
  readonly keys: ApiKeys;
  /** The key made for this run when none was configured (never in production). */
  readonly runKey: string | undefined;
  /** For the lines of the service's own life (start, key reloads, stop): JSON lines, or pretty on a terminal. */
  readonly log: Logger;
  /** Re-reads the key file; on failure keeps the old keys and rejects with why. */
  reloadKeys(): Promise<void>;
  /**
   * Re-reads WEBHOOKS_FILE and delivers to its subscriptions from now on, trying again those
   * marked failing; on failure keeps the old ones and rejects with why. Resolves how many
   * subscriptions there are, `undefined` when WEBHOOKS_FILE is unset.
   */
  reloadWebhooks(): Promise<number | undefined>;
  /**
   * Stops taking connections, closes idle ones, lets requests in flight finish (each closing
   * its connection) for up to SHUTDOWN_TIMEOUT_MS, refusing shortly before it the writes
   * that have not begun (503, nothing written), cuts short what is left, then closes the storage
   * (once a removal of old changes in progress is over).
   */
  close(): Promise<void>;
}

/** Starts the service described by `config`, serving `kinds` of record (the seed's by default), and resolves once it listens. */
export async function startService(config: Config, kinds: Kinds = seedKinds): Promise<RunningService> {
  const keys = new ApiKeys(await configuredKeys(config));
  let runKey: string | undefined;
  if (keys.size === 0) {
    if (config.production) throw new Error('no API key configured: set API_KEYS or API_KEYS_FILE');
    runKey = makeRunKey();
    keys.replace([keyEntryOf(runKey, { name: RUN_KEY_NAME })]);
  }
  const subscriptions = await configuredSubscriptions(config, kinds);
  const container = await createContainer(config, keys, kinds);
  const webhooks = container.get(ids.webhooks);
  const storage = container.get(ids.storage);
  storage.open();
  const log = lifecycleLogger(container.get(ids.logger));
  const retention =
    config.changesRetentionDays === undefined
      ? undefined
      : keepChangesFor(config.changesRetentionDays, container.get(ids.changes), container.get(ids.clock), log);
  const server = createHttpServer(container.get(ids.httpApp), { onResponse: container.get(ids.responseObserver) });
  // Set on purpose: slow senders lose their socket, and idle keep-alive outlives a load
  // balancer's usual 60 s so the balancer, not us, closes idle connections.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 65_000;
  const drain = drainable(server);
  server.listen(config.port, config.host);
  try {
    await once(server, 'listening');
  } catch (error) {
    await retention?.stop();
    await (storage.discardStart === undefined ? storage.close() : storage.discardStart());
    throw error;
  }
  await webhooks?.deliverTo(subscriptions);
  const metrics = container.get(ids.metrics);
  /** `reload`, with each failure counted for the metrics of `file`. */
  const counted =
    <T>(file: ReloadedFile, reload: () => Promise<T>) =>
    (): Promise<T> =>
      reload().catch((error: unknown) => {
        metrics?.reloadFailed(file);
        throw error;
      });
  return {
    url: urlOf(server),
    keys,
    runKey,
    log,
    reloadKeys: counted('API_KEYS_FILE', async () => {
      // A run key stands in for keys never configured: there is nothing to read again, and
      // reading nothing would lock every client out (and end every stream).
      if (runKey === undefined) keys.replace(await configuredKeys(config));
    }),
    reloadWebhooks: counted('WEBHOOKS_FILE', async () => {
      if (webhooks === null) return undefined;
      const reloaded = await configuredSubscriptions(config, kinds);
      await webhooks.deliverTo(reloaded);
      return reloaded.length;
    }),
    close: async () => {
      // Deliveries stop beside the drain: an attempt in flight may end until writes are
      // refused, and writes are refused once the deliveries have written where they stopped
      // (an acknowledged change left unrecorded would be sent again, and a lease not given up
      // would keep another instance waiting for it to run out). Before the drain ends, a
      // moment later at most, so that a write not yet begun is still refused while its
      // client waits for the answer.
      const writeStopAt = Math.max(0, config.shutdownTimeoutMs - WRITE_STOP_LEAD_MS);
      const webhooksStopped = Promise.resolve(webhooks?.stop(writeStopAt)).catch(() => undefined);
      const stopWrites = (): void => {
        storage.stopWrites?.();
      };
      const lead = setTimeout(() => {
        void Promise.race([webhooksStopped, delay(WEBHOOK_RECORD_MS, undefined, { ref: false })]).then(stopWrites);
      }, writeStopAt);
      const cut = await drain(config.shutdownTimeoutMs).finally(() => {
        clearTimeout(lead);
      });
      if (cut.connections > 0) {
        container.get(ids.logger).warn({ ...cut }, `shutdown: cut short after SHUTDOWN_TIMEOUT_MS (${config.shutdownTimeoutMs} ms)`);
      }
      // Whoever sent a write not yet begun has had an answer or lost the connection: none waits for it.
      await webhooksStopped;
      stopWrites();
      await retention?.stop();
      await storage.close();
      await container.get(ids.logOutput)?.close();
    },
  };
}

function urlOf(server: Server): string {
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${port}`;
}
