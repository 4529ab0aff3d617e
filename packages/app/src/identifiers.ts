import { type RequestListener } from 'node:http';
import { type ApiKeys, type HitCounter, type ResponseObserver } from '@workplan/adapter-express';
import { type ChangeLog, type Clock, type DeliveryLedger, type IdGenerator, type Kinds, type Repositories, type Workplan } from '@workplan/core';
import { type WebhookDeliverer } from '@workplan/webhooks';
import { type ServiceIdentifier } from 'inversify';
import { type Logger } from 'pino';
import { type Config } from './config.js';
import { type LogWriter } from './log-writer.js';
import { type ServiceMetrics } from './metrics.js';

/** The storage's life outside its repositories: readiness for `/health/ready`, and closing. */
export interface StorageLifecycle {
  /** Starts connecting, in the background where that can take a while. */
  open(): void;
  isReady(): Promise<boolean>;
  /**
   * Where writes wait in a queue of the storage's own (SQLite's write thread, behind
   * another process's lock): from now on none begins, and those waiting reject with
   * `storageUnavailable`, unwritten, so their requests are answered before the exit.
   */
  stopWrites?(): void;
  close(): Promise<void>;
  /**
   * Closes the storage after a start failed before serving, and removes what this start
   * made (a new SQLite file): left there empty, a later start would take it for the
   * operator's and not say that it made it.
   */
  discardStart?(): Promise<void>;
}

/** The service identifiers of the container, one per port or part. */
export const ids = {
  config: Symbol('Config') as ServiceIdentifier<Config>,
  apiKeys: Symbol('ApiKeys') as ServiceIdentifier<ApiKeys>,
  clock: Symbol('Clock') as ServiceIdentifier<Clock>,
  idGenerator: Symbol('IdGenerator') as ServiceIdentifier<IdGenerator>,
  /** The kinds of record the service serves: the seed's, unless `startService` is given others. */
  kinds: Symbol('Kinds') as ServiceIdentifier<Kinds>,
  /** One repository per kind of record, from the storage the configuration names. */
  repositories: Symbol('Repositories') as ServiceIdentifier<Repositories<Kinds>>,
  /** The change log those repositories write each change to, in the same storage. */
  changes: Symbol('ChangeLog') as ServiceIdentifier<ChangeLog>,
  /** Where webhook deliveries keep their progress, in the same storage. */
  deliveryLedger: Symbol('DeliveryLedger') as ServiceIdentifier<DeliveryLedger>,
  storage: Symbol('StorageLifecycle') as ServiceIdentifier<StorageLifecycle>,
  /** Where the rate limits count, in the storage's database; `null` keeps them in this process (memory storage). */
  hitCounter: Symbol('HitCounter') as ServiceIdentifier<HitCounter | null>,
  workplan: Symbol('Workplan') as ServiceIdentifier<Workplan<Kinds>>,
  /** Where log lines are written; `null` when they are pretty-printed to a terminal. */
  logOutput: Symbol('LogOutput') as ServiceIdentifier<LogWriter | null>,
  logger: Symbol('Logger') as ServiceIdentifier<Logger>,
  /** `null` when METRICS=off. */
  metrics: Symbol('ServiceMetrics') as ServiceIdentifier<ServiceMetrics | null>,
  /** Logs and counts every answer, the app's and the HTTP server's own. */
  responseObserver: Symbol('ResponseObserver') as ServiceIdentifier<ResponseObserver>,
  /** Sends each change to the subscriptions of WEBHOOKS_FILE; `null` when it is unset. */
  webhooks: Symbol('WebhookDeliverer') as ServiceIdentifier<WebhookDeliverer | null>,
  httpApp: Symbol('HttpApp') as ServiceIdentifier<RequestListener>,
} as const;
