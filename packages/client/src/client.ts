import { WorkplanClientError } from './errors.js';

/** A record as the service returns it; timestamps stay ISO 8601 strings, exactly as sent. */
export type WorkplanRecord<F extends string> = {
  readonly id: string;
  readonly createdAt: string;
  readonly updatedAt: string;
} & { readonly [K in F]: string };

export type WorkSchedule = WorkplanRecord<'value'>;
export type CostCenter = WorkplanRecord<'title'>;

/** A page of a list: `limit` records after passing over `skip` (0 when left out). */
export interface PageRequest {
  readonly limit: number;
  readonly skip?: number;
}

/**
 * A condition on a write: go ahead only while the record is still as the caller last
 * saw it. `ifMatch` is an entity tag (`"..."`), or a record this client returned, whose
 * tag it remembers; a record changed since gets a `PRECONDITION_FAILED` (412) rejection.
 */
export interface WriteCondition<F extends string> {
  readonly ifMatch: string | WorkplanRecord<F>;
}

/** The five operations of one resource. */
export interface ResourceClient<F extends string> {
  /** Creates a record from `{ value }` or `{ title }`. */
  create(input: { readonly [K in F]: string }): Promise<WorkplanRecord<F>>;
  /** Replaces the record's text; with `condition`, only while it is unchanged. */
  update(id: string, input: { readonly [K in F]: string }, condition?: WriteCondition<F>): Promise<WorkplanRecord<F>>;
  /** The record with this id; rejects with code `NOT_FOUND` when there is none. */
  find(id: string): Promise<WorkplanRecord<F>>;
  /** Records oldest first: the first page the service allows, or the page asked for. */
  list(page?: PageRequest): Promise<WorkplanRecord<F>[]>;
  /** Deletes the record; rejects with code `NOT_FOUND` when there is none; with `condition`, only while it is unchanged. */
  delete(id: string, condition?: WriteCondition<F>): Promise<void>;
}

/** What a transport resolves: the envelope's `data`, and the answer's `ETag` when it has one. */
export interface TransportAnswer {
  readonly data: unknown;
  readonly entityTag?: string;
}

/** Sends one request, with any extra headers, and resolves the envelope's `data` and the answer's tag. */
export type Transport = (method: string, path: string, body?: unknown, headers?: Readonly<Record<string, string>>) => Promise<TransportAnswer>;

// The tag of each record object this client returned; a record's JSON stays as the
// service sends it, and a record dropped by the caller is dropped here too.
const entityTags = new WeakMap<object, string>();

/** The entity tag the service sent with `record`, when this client returned that very object from create, find or update. */
export function entityTagOf(record: WorkplanRecord<string>): string | undefined {
  return entityTags.get(record);
}

function ifMatchHeader<F extends string>(condition: WriteCondition<F> | undefined): Record<string, string> {
  if (condition === undefined) return {};
  const { ifMatch } = condition;
  const tag = typeof ifMatch === 'string' ? ifMatch : entityTagOf(ifMatch);
  if (tag === undefined) throw new TypeError('ifMatch names a record this client did not return, so its entity tag is unknown');
  return { 'if-match': tag };
}

/** Where a resource lives: `/api/v1/{singular}/{id}` and `/api/v1/{plural}`. */
interface ResourcePaths {
  readonly singular: string;
  readonly plural: string;
}

/** One implementation for every resource: only the paths differ. */
export function resourceClient<F extends string>(send: Transport, { singular, plural }: ResourcePaths): ResourceClient<F> {
  const one = (id: string) => `/api/v1/${singular}/${encodeURIComponent(id)}`;
  // The service returns what the document's schema for F says; the transport checked the envelope.
  const record = async (pending: Promise<TransportAnswer>) => {
    const { data, entityTag } = await pending;
    const answered = data as WorkplanRecord<F>;
    if (entityTag !== undefined) entityTags.set(answered, entityTag);
    return answered;
  };
  return {
    create: (input) => record(send('POST', `/api/v1/${singular}`, input)),
    update: async (id, input, condition) => record(send('PUT', one(id), input, ifMatchHeader(condition))),
    find: (id) => record(send('GET', one(id))),
    list: async (page) => {
      const path = page === undefined ? `/api/v1/${plural}` : `/api/v1/${plural}/${page.skip ?? 0}/${page.limit}`;
      return (await send('GET', path)).data as WorkplanRecord<F>[];
    },
    delete: async (id, condition) => {
      await send('DELETE', one(id), undefined, ifMatchHeader(condition));
    },
  };
}

/** A transport over `fetch` sending `KEY` and answering the envelope's `data`, or throwing its error. */
export function fetchTransport(baseUrl: string, key: string, fetchImpl: typeof fetch = fetch): Transport {
  const base = baseUrl.replace(/\/+$/u, '');
  return async (method, path, body, extra = {}) => {
    const headers: Record<string, string> = { ...extra, KEY: key, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init: RequestInit = body === undefined ? { method, headers } : { method, headers, body: JSON.stringify(body) };
    const response = await fetchImpl(`${base}${path}`, init);
    const requestId = response.headers.get('x-request-id') ?? '';
    const envelope = parseEnvelope(await response.text());
    if (response.ok && envelope?.success === true) {
      const entityTag = response.headers.get('etag');
      return entityTag === null ? { data: envelope.data } : { data: envelope.data, entityTag };
    }
    const error = envelope?.error;
    if (envelope === undefined || error === undefined) {
      throw new WorkplanClientError(response.status, 'UNEXPECTED_RESPONSE', `HTTP ${response.status}`, 'A resposta não é do serviço.', requestId);
    }
    throw new WorkplanClientError(response.status, error.code, envelope.message ?? '', error.detail, error.requestId, error.existingId);
  };
}

interface Envelope {
  readonly success?: unknown;
  readonly data?: unknown;
  readonly message?: string;
  readonly error?: { readonly code: string; readonly detail: string; readonly requestId: string; readonly existingId?: string };
}

/** The envelope of a JSON answer; undefined for anything else, which the caller reports. */
function parseEnvelope(text: string): Envelope | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined; // Not JSON: a proxy's page, say; the caller throws UNEXPECTED_RESPONSE.
  }
  return typeof parsed === 'object' && parsed !== null && 'success' in parsed ? parsed : undefined;
}
