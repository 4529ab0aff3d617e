import { expect } from 'vitest';
import { send, type HttpAnswer } from './http-client.js';
import { contractResources, type ContractResource } from './http-contract-data.js';

/** The statuses the contract lets a service on the memory store answer (no 429, no 503). */
export const CONTRACT_STATUSES: readonly number[] = [200, 201, 204, 400, 401, 404, 405, 409, 413, 415, 431];

const codesOfStatus: Readonly<Record<number, readonly string[]>> = {
  400: ['INVALID_JSON', 'VALIDATION_FAILED', 'INVALID_PAGINATION', 'BAD_REQUEST'],
  401: ['UNAUTHORIZED'],
  404: ['NOT_FOUND', 'ROUTE_NOT_FOUND'],
  405: ['METHOD_NOT_ALLOWED'],
  409: ['CONFLICT'],
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
  431: ['HEADERS_TOO_LARGE'],
};

const operationMessages = contractResources.flatMap((resource) => Object.values(resource.messages));
const routeMessages = ['Rota não encontrada.', 'Método não permitido.', 'Requisição inválida.', 'Serviço indisponível.'];
/** Codes that only an operation of the seed can answer, so the message is that operation's. */
const operationCodes = ['UNAUTHORIZED', 'INVALID_JSON', 'VALIDATION_FAILED', 'INVALID_PAGINATION', 'NOT_FOUND', 'CONFLICT'];
const VISIBLE_ASCII_ID = /^[\x21-\x7E]{1,128}$/u;

/** What was sent, as far as the answer's checks need it. */
export interface SentRequest {
  readonly method: string;
  /** The request target as written on the request line. */
  readonly path: string;
  /** Every `X-Request-Id` value sent, if any. */
  readonly requestIds?: readonly string[];
}

/** The seed operation Express would run for this method and target, when the method is one it takes. */
export function operationOf(method: string, target: string): { readonly message: string } | undefined {
  // Express's parseurl hands a target holding '#' to url.parse, which turns '\' into '/'.
  const pathname = (target.includes('#') ? target.replaceAll('\\', '/') : target).split(/[?#]/u)[0] ?? '';
  if (!pathname.startsWith('/')) return undefined;
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const [empty, api, version, word, ...params] = trimmed.split('/');
  if (empty !== '' || api?.toLowerCase() !== 'api' || version?.toLowerCase() !== 'v1') return undefined;
  if (params.some((param) => param === '')) return undefined;
  const asGet = method === 'HEAD' ? 'GET' : method;
  for (const resource of contractResources) {
    const message = messageOf(resource, word?.toLowerCase() ?? '', params.length, asGet);
    if (message !== undefined) return { message };
  }
  return undefined;
}

function messageOf(resource: ContractResource, word: string, params: number, method: string): string | undefined {
  const { messages } = resource;
  if (word === resource.singular.toLowerCase()) {
    if (params === 0) return method === 'POST' ? messages.create : undefined;
    if (params > 1) return undefined;
    return ({ GET: messages.find, PUT: messages.update, DELETE: messages.delete } as Record<string, string>)[method];
  }
  return word === resource.plural.toLowerCase() && params <= 2 && method === 'GET' ? messages.list : undefined;
}

/** The docs page, the API document and the metrics keep their own media types; only their failures use the envelope. */
function keepsOwnMediaType(target: string): boolean {
  const lower = target.toLowerCase();
  return ['/docs', '/openapi.json', '/metrics'].some((prefix) => lower.startsWith(prefix));
}

/** `/` (a redirect) and the operator console's files at `/console/`: pages, not the API. */
function isConsoleSite(target: string): boolean {
  const pathname = (target.split(/[?#]/u)[0] ?? '').toLowerCase();
  return pathname === '/' || pathname === '/console' || pathname.startsWith('/console/');
}

/** A page of the console, or the redirect to it: its own statuses and types, the headers every answer carries, and its policy. */
function expectConsoleAnswer(answer: HttpAnswer, sent: SentRequest, seen: string): void {
  expect([200, 204, 301, 302, 304], seen).toContain(answer.status);
  expect(answer.headers['x-content-type-options'], seen).toBe('nosniff');
  expect(answer.headers['x-powered-by'], seen).toBeUndefined();
  expect(answer.headers['x-request-id'], seen).toMatch(VISIBLE_ASCII_ID);
  if (answer.status === 302) expect(answer.headers.location, seen).toBe('/console/');
  // serve-static's own redirect of /console to /console/ carries a stricter policy still: 'none'.
  else expect(answer.headers['content-security-policy'], seen).toMatch(/^default-src '(?:self|none)'/u);
  if (sent.method === 'HEAD' || answer.status === 204 || answer.status === 302) expect(answer.text, seen).toBe('');
}

/** Asserts what the contract asks of any answer to any request, however hostile. */
export function expectContractAnswer(answer: HttpAnswer, sent: SentRequest): void {
  const seen = `${sent.method} ${JSON.stringify(sent.path)} answered ${answer.status} ${answer.text.slice(0, 300)}`;
  if (isConsoleSite(sent.path) && answer.status < 400) {
    expectConsoleAnswer(answer, sent, seen);
    return;
  }
  expect(CONTRACT_STATUSES, seen).toContain(answer.status);
  if (keepsOwnMediaType(sent.path) && answer.status < 400) return;
  expect(answer.headers['content-type'], seen).toBe('application/json; charset=utf-8');
  expect(answer.headers['x-content-type-options'], seen).toBe('nosniff');
  expect(answer.headers['x-powered-by'], seen).toBeUndefined();
  const requestId = answer.headers['x-request-id'];
  expect(requestId, seen).toMatch(VISIBLE_ASCII_ID);
  if (!refusedByParser(answer)) expectEchoedRequestId(requestId, sent, seen);
  if (answer.status === 405) expect(typeof answer.headers.allow, seen).toBe('string');
  if (answer.status === 204 || sent.method === 'HEAD') {
    expect(answer.text, seen).toBe('');
    return;
  }
  if (answer.status < 400) {
    expect(answer.json, seen).toMatchObject({ success: true });
    return;
  }
  expectProblemEnvelope(answer, sent, seen);
}

function expectProblemEnvelope(answer: HttpAnswer, sent: SentRequest, seen: string): void {
  const body = answer.json as Partial<{ success: unknown; message: unknown; error: Partial<Record<string, unknown>> }> | undefined;
  const { message, error } = { message: body?.message, error: body?.error ?? {} };
  expect({ success: body?.success, requestId: error.requestId, detail: typeof error.detail }, seen).toEqual({
    success: false,
    requestId: answer.headers['x-request-id'],
    detail: 'string',
  });
  expect(codesOfStatus[answer.status], seen).toContain(error.code);
  expect([...operationMessages, ...routeMessages], seen).toContain(message);
  if (operationCodes.includes(String(error.code))) expect(operationMessages, seen).toContain(message);
  if (error.code === 'ROUTE_NOT_FOUND') expect(message, seen).toBe('Rota não encontrada.');
  if (error.code === 'METHOD_NOT_ALLOWED') expect(message, seen).toBe('Método não permitido.');
  const operation = operationOf(sent.method, sent.path);
  if (answer.status === 401 && operation !== undefined) expect(message, seen).toBe(operation.message);
}

/** Node's parser refused the request before its headers were read, so no caller's id can come back. */
function refusedByParser(answer: HttpAnswer): boolean {
  const code = (answer.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  return code === 'BAD_REQUEST' || code === 'HEADERS_TOO_LARGE';
}

/** A caller's id of 1 to 128 visible ASCII characters, sent once, comes back as sent (less the OWS Node trims). */
function expectEchoedRequestId(answered: unknown, sent: SentRequest, seen: string): void {
  if (sent.requestIds?.length !== 1) return;
  const given = sent.requestIds[0]?.replace(/^[ \t]+|[ \t]+$/gu, '') ?? '';
  if (VISIBLE_ASCII_ID.test(given)) expect(answered, seen).toBe(given);
}

/** Every stored record of both resources, as the list operations give them, for before/after comparisons. */
export async function storedRecords(baseUrl: string, key: string): Promise<string> {
  const lists = await Promise.all(
    contractResources.map((resource) => send(baseUrl, { path: `/api/v1/${resource.plural}`, headers: { key } })),
  );
  for (const list of lists) {
    expect({ status: list.status, link: list.headers.link }, 'the lists must hold every record').toEqual({ status: 200, link: undefined });
  }
  return lists.map((list) => list.text).join('\n');
}

/**
 * The first answer of a raw exchange, its body cut at `Content-Length` (none for a 204):
 * bytes after a request can draw a second answer on the same connection.
 */
export function firstAnswer(answer: HttpAnswer): HttpAnswer {
  const length = answer.status === 204 ? 0 : Number(answer.headers['content-length']);
  if (!Number.isInteger(length)) return answer;
  const text = Buffer.from(answer.text, 'utf8').subarray(0, length).toString('utf8');
  return { ...answer, text, json: parseJson(text) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // The envelope checks report a body that is not JSON.
  }
}
