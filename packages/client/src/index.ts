/** @workplan/client: a typed fetch client for the workplan HTTP service, with no dependency; runs in Node and in browsers. */
import { type CallDefaults, type RetryPolicy } from './call-policies.js';
import { changesReader, type Change, type ChangesOptions, type ChangesPage } from './changes.js';
import { resourceClient, type ResourceClient, type ResourcePaths } from './client.js';
import { fetchTransport } from './fetch-transport.js';
import { followChanges, type FollowOptions } from './follow.js';

export { type CallOptions, type RetryNotice, type RetryPolicy } from './call-policies.js';
export { type Change, type ChangesOptions, type ChangesPage, type ChangesRequest, type RecordChange, type ResourceName } from './changes.js';
export { entityTagOf, resourceClient, type Page, type ResourceClient, type ResourcePaths, type WriteCondition, type WriteOptions } from './client.js';
export { type CostCenter, type WorkplanRecord, type WorkSchedule } from './records.js';
export { CursorExpiredError, WorkplanClientError, type FailureDetails, type FieldIssue } from './errors.js';
export { fetchTransport, nextLinkOf, type Transport, type TransportAnswer } from './fetch-transport.js';
export { type FollowOptions, type FollowRetry } from './follow.js';
export { type HistoryPage, type HistoryRequest } from './history.js';
export { type PageRequest, type SortOrder } from './list-request.js';

export interface ClientOptions {
  /** Where the service listens, e.g. `http://127.0.0.1:3000`, or a page's `location.origin`. */
  readonly baseUrl: string;
  /** An API key the service accepts; sent as the `KEY` header. */
  readonly key: string;
  /** A `fetch` to use instead of the global one (tests, proxies). */
  readonly fetch?: typeof fetch;
  /** A time limit for every call, in milliseconds, unless the call gives its own. */
  readonly timeoutMs?: number;
  /** Opt-in: retry every call answered 503 after its `Retry-After`, unless the call says otherwise. */
  readonly retry?: RetryPolicy;
}

export interface WorkplanClient {
  readonly scales: ResourceClient<'value'>;
  readonly costCenters: ResourceClient<'title'>;
  /** Any resource the service serves, by its path words (`{ singular: 'scale', plural: 'scales' }`), its text in field `F`. */
  resource<F extends string = string>(paths: ResourcePaths): ResourceClient<F>;
  /** A page of the changes of both resources, in the order they were committed; with `wait`, a long poll. */
  changes(options?: ChangesOptions): Promise<ChangesPage>;
  /** Every change after `after`, as they are committed, until `signal` aborts; passing failures are ridden out, a `CursorExpiredError` is thrown. */
  follow(options?: FollowOptions): AsyncGenerator<Change, void>;
}

/** A client for both resources of the service at `baseUrl`. */
export function createClient(options: ClientOptions): WorkplanClient {
  const send = fetchTransport(options.baseUrl, options.key, options.fetch);
  const defaults: CallDefaults = {
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  };
  const changes = changesReader(send, defaults);
  const resource = <F extends string>(paths: ResourcePaths) => resourceClient<F>(send, paths, defaults);
  return {
    scales: resource<'value'>({ singular: 'scale', plural: 'scales' }),
    costCenters: resource<'title'>({ singular: 'costCenter', plural: 'costCenters' }),
    resource,
    changes,
    follow: (options) => followChanges(changes, options),
  };
}
