import { CursorExpiredError, WorkplanClientError, type FieldIssue } from './errors.js';

/** What a transport resolves: the envelope's `data`, the answer's `ETag`, its `Link: rel="next"` target and `X-Total-Count`. */
export interface TransportAnswer {
  readonly data: unknown;
  readonly entityTag?: string;
  /** The next page's path, from `Link: <...>; rel="next"` on a list answer. */
  readonly next?: string;
  /** From `X-Total-Count` on a list answer that asked to count. */
  readonly total?: number;
}

/**
 * Sends one request, with any extra headers, and resolves the envelope's `data`, tag and
 * next link, or rejects with a `WorkplanClientError`; `signal` aborts it.
 */
export type Transport = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Readonly<Record<string, string>>,
  signal?: AbortSignal,
) => Promise<TransportAnswer>;

/** A transport over `fetch` sending `KEY` and answering the envelope's `data`, or throwing its error. */
export function fetchTransport(baseUrl: string, givenKey: string, fetchImpl?: typeof fetch): Transport {
  // Whitespace around a header's value is no part of it: fetch drops it, and a key read
  // from a file keeps its newline.
  const key = givenKey.replace(/^[\t\n\r ]+|[\t\n\r ]+$/gu, '');
  const base = baseUrl.replace(/\/+$/u, '');
  // Refused here, once: fetch would reject every call with a TypeError, which reads as a lost
  // network, and a follower would try again for ever.
  if (!isHttpUrl(base)) {
    throw new TypeError(`baseUrl must be an absolute http or https URL, such as http://127.0.0.1:3000 (given: ${JSON.stringify(baseUrl)})`);
  }
  if (!/^[\x21-\x7e]*$/u.test(key)) throw new TypeError("key must be visible ASCII (! to ~), as the service's keys are");
  // Looked up per call, and called unbound: a browser's fetch refuses another `this`.
  const send = fetchImpl ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  return async (method, path, body, extra = {}, signal) => {
    const headers: Record<string, string> = { ...extra, KEY: key, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = JSON.stringify(body);
    if (signal !== undefined) init.signal = signal;
    const response = await send(`${base}${path}`, init);
    const envelope = parseEnvelope(await response.text());
    if (response.ok && envelope?.success === true) return answerOf(envelope.data, response.headers);
    throw failureOf(response, envelope);
  };
}

/** Whether `text` is an absolute http or https URL (`URL.canParse` and `URL.parse` are too new for some browsers the client serves). */
function isHttpUrl(text: string): boolean {
  try {
    return /^https?:$/u.test(new URL(text).protocol);
  } catch {
    return false;
  }
}

function answerOf(data: unknown, headers: Headers): TransportAnswer {
  const entityTag = headers.get('etag');
  const next = nextLinkOf(headers.get('link'));
  const total = headers.get('x-total-count');
  return {
    data,
    ...(entityTag === null ? {} : { entityTag }),
    ...(next === undefined ? {} : { next }),
    ...(total === null || !/^\d+$/u.test(total) ? {} : { total: Number(total) }),
  };
}

function failureOf(response: Response, envelope: Envelope | undefined): WorkplanClientError {
  const error = envelope?.error;
  const retryAfterSeconds = secondsOf(response.headers.get('retry-after'));
  const details = retryAfterSeconds === undefined ? {} : { retryAfterSeconds };
  if (envelope === undefined || error === undefined) {
    const requestId = response.headers.get('x-request-id') ?? '';
    return new WorkplanClientError(response.status, 'UNEXPECTED_RESPONSE', `HTTP ${response.status}`, 'A resposta não é do serviço.', requestId, undefined, details);
  }
  const issues = error.issues === undefined ? {} : { issues: error.issues };
  const Failure = error.code === 'CURSOR_EXPIRED' ? CursorExpiredError : WorkplanClientError;
  return new Failure(response.status, error.code, envelope.message ?? '', error.detail, error.requestId, error.existingId, { ...details, ...issues });
}

/** The target of the `rel="next"` link of a `Link` header (RFC 8288), if it has one. */
export function nextLinkOf(header: string | null): string | undefined {
  if (header === null) return undefined;
  for (const link of header.split(/,(?=\s*<)/u)) {
    const [, target, params = ''] = /^\s*<([^>]*)>(.*)$/su.exec(link) ?? [];
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/iu.exec(params);
    const relations = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/u);
    if (target !== undefined && relations.includes('next')) return target;
  }
  return undefined;
}

/** `Retry-After` in seconds: a number of seconds, or an HTTP date from now. */
function secondsOf(header: string | null): number | undefined {
  if (header === null) return undefined;
  if (/^\s*\d+\s*$/u.test(header)) return Number(header);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

interface Envelope {
  readonly success?: unknown;
  readonly data?: unknown;
  readonly message?: string;
  readonly error?: {
    readonly code: string;
    readonly detail: string;
    readonly requestId: string;
    readonly existingId?: string;
    readonly issues?: readonly FieldIssue[];
  };
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
