/** @workplan/client: a typed fetch client for the workplan HTTP service, with no dependency. */
import { fetchTransport, resourceClient, type ResourceClient } from './client.js';

export {
  entityTagOf,
  fetchTransport,
  resourceClient,
  type CostCenter,
  type PageRequest,
  type ResourceClient,
  type Transport,
  type TransportAnswer,
  type WorkplanRecord,
  type WriteCondition,
  type WorkSchedule,
} from './client.js';
export { WorkplanClientError } from './errors.js';

export interface ClientOptions {
  /** Where the service listens, e.g. `http://127.0.0.1:3000`. */
  readonly baseUrl: string;
  /** An API key the service accepts; sent as the `KEY` header. */
  readonly key: string;
  /** A `fetch` to use instead of the global one (tests, proxies, timeouts). */
  readonly fetch?: typeof fetch;
}

export interface WorkplanClient {
  readonly scales: ResourceClient<'value'>;
  readonly costCenters: ResourceClient<'title'>;
}

/** A client for both resources of the service at `baseUrl`. */
export function createClient(options: ClientOptions): WorkplanClient {
  const send = fetchTransport(options.baseUrl, options.key, options.fetch);
  return {
    scales: resourceClient<'value'>(send, { singular: 'scale', plural: 'scales' }),
    costCenters: resourceClient<'title'>(send, { singular: 'costCenter', plural: 'costCenters' }),
  };
}
