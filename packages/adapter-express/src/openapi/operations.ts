import { checkPage, DEFAULT_MAX_PAGE_SIZE, orderOf } from '@workplan/core';
import { type ErrorCode } from '../problems.js';
import { type KindDescription } from '@workplan/core';
import { exampleChanges, historyParameters } from './change-schemas.js';
import { EXAMPLE_ID, ref, type Json } from './json.js';
import { errorResponses, failuresOf, thrownBy } from './error-responses.js';
import { listQueryParameters } from './list-query.js';
import { capitalized, phrasesOf } from './portuguese.js';

/** What any operation under `/api` can fail with, beyond its own failures. */
export const apiFailures: readonly ErrorCode[] = [
  'BAD_REQUEST',
  'REQUEST_TIMEOUT',
  'UNAUTHORIZED',
  'RATE_LIMITED',
  'HEADERS_TOO_LARGE',
  'INTERNAL',
  'STORAGE_UNAVAILABLE',
];
/** What a write can fail with that a read cannot: a `read` key is refused it. */
const writeFailures: readonly ErrorCode[] = ['FORBIDDEN'];
const bodyFailures: readonly ErrorCode[] = [...writeFailures, 'INVALID_JSON', 'VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'CONFLICT'];

export const requestId = { 'X-Request-Id': ref('headers', 'XRequestId') };
const entityTag = { ETag: ref('headers', 'ETag') };
const ifMatch = { parameters: [ref('parameters', 'ifMatch')] };
const ifNoneMatch = { parameters: [ref('parameters', 'ifNoneMatch')] };
const notModified = { '304': { description: 'A cópia do cliente ainda é a atual: sem corpo, com `ETag`.', headers: { ...requestId, ...entityTag } } };

/** A JSON success answer of `schema`, with its example. */
export function success(description: string, schema: Json, example: unknown, headers: Json = {}): Json {
  return { description, headers: { ...requestId, ...headers }, content: { 'application/json': { schema, example } } };
}

/** The answer to OPTIONS on a path: 204 with `Allow`, exactly as the route table computes it. */
export function optionsOperation(
  operationId: string,
  tags: readonly string[],
  methods: readonly string[],
  pathParameters: readonly string[] = [],
): Json {
  const allow = [...methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])), 'OPTIONS'].join(', ');
  // OPTIONS answers for the path's shape, whatever its segments hold, so they are any text here.
  const anySegment = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string', minLength: 1 } });
  return {
    operationId,
    tags,
    ...(pathParameters.length === 0 ? {} : { parameters: pathParameters.map(anySegment) }),
    summary: 'Métodos do caminho (sem chave)',
    security: [],
    responses: {
      '204': {
        description: 'Sem corpo; `Allow` lista os métodos.',
        headers: { ...requestId, Allow: { required: true, schema: { type: 'string', const: allow } } },
      },
    },
  };
}

/** The path items of one resource: create, update, find, delete, and the three list forms. */
export function resourcePaths(resource: KindDescription, base = '/api/v1'): Record<string, Json> {
  const { schema: name, singular, plural, field, messages } = resource;
  const { theOne, aOne, theMany, agree } = phrasesOf(resource);
  const tags = [name];
  const record = { id: EXAMPLE_ID, [field]: resource.sample, createdAt: '2026-11-22T14:36:43.123Z', updatedAt: '2026-11-22T14:36:43.123Z' };
  const one = success(`${capitalized(theOne)}.`, ref('schemas', `${name}Envelope`), { success: true, data: record }, entityTag);
  const listHeaders = { Link: ref('headers', 'Link'), 'X-Total-Count': ref('headers', 'XTotalCount') };
  const many = success(`${capitalized(theMany)}, ${agree('das mais antigas às mais novas', 'dos mais antigos aos mais novos')}.`, ref('schemas', `${name}ListEnvelope`), { success: true, data: [record] }, listHeaders);
  const query = { parameters: listQueryParameters(resource) };
  const body = { required: true, content: { 'application/json': { schema: ref('schemas', `${name}Input`), example: { [field]: resource.sample } } } };

  // A list's refusals, as the service makes them: a page over the default maximum, and an order it does not have.
  const listRefused = {
    INVALID_PAGINATION: thrownBy(() => {
      checkPage({ skip: 0, limit: DEFAULT_MAX_PAGE_SIZE + 1 }, DEFAULT_MAX_PAGE_SIZE);
    }),
    INVALID_QUERY: thrownBy(() => orderOf('', field)),
  };
  type Refused = Partial<Record<ErrorCode, unknown>>;
  const operation = (operationId: string, summary: string, message: string, codes: readonly ErrorCode[], ok: Record<string, Json>, extra: Json = {}, refused: Refused = {}) => ({
    operationId,
    tags,
    summary,
    ...extra,
    responses: { ...ok, ...errorResponses(failuresOf([...codes, ...apiFailures], message, refused), field) },
  });
  // HEAD answers as GET without a body: same statuses, same headers.
  const head = (operationId: string, message: string, codes: readonly ErrorCode[], okHeaders: Json = {}, extra: Json = {}, more: Json = {}, refused: Refused = {}) => ({
    operationId,
    tags,
    summary: 'Como GET, só cabeçalhos',
    ...extra,
    responses: {
      '200': { description: 'Só cabeçalhos.', headers: { ...requestId, ...okHeaders } },
      ...more,
      ...errorResponses(failuresOf([...codes, ...apiFailures], message, refused), field, false),
    },
  });
  const list = (suffix: string, summary: string, codes: readonly ErrorCode[], parameters: readonly string[]) => ({
    parameters: parameters.map((p) => ref('parameters', p)),
    get: operation(`list${name}s${suffix}`, summary, messages.list, [...codes, 'INVALID_QUERY'], { '200': many }, query, listRefused),
    head: head(`head${name}s${suffix}`, messages.list, [...codes, 'INVALID_QUERY'], listHeaders, query, {}, listRefused),
    options: optionsOperation(`options${name}s${suffix}`, tags, ['GET'], parameters),
  });
  const created = success(`${capitalized(theOne)} ${agree('criada', 'criado')}.`, ref('schemas', `${name}Envelope`), { success: true, data: record }, { Location: ref('headers', 'Location'), ...entityTag });
  const historyLink = { Link: ref('headers', 'HistoryLink') };
  const history = success(
    `Uma página das alterações ${agree('da', 'do')} ${resource.one}, das mais antigas às mais novas, também depois de ${agree('apagada', 'apagado')}: ` +
      'paginada como `/changes`, por `after` e `limit`, com `Link` para a próxima enquanto há mais.',
    ref('schemas', `${name}HistoryEnvelope`),
    { success: true, data: exampleChanges(resource, 41) },
    historyLink,
  );
  const historyQuery = { parameters: historyParameters() };
  const historyFailures: readonly ErrorCode[] = ['NOT_FOUND', 'INVALID_QUERY', 'CURSOR_EXPIRED'];
  const deleted = success(`${capitalized(theOne)} foi ${agree('apagada', 'apagado')}.`, ref('schemas', 'Success'), { success: true });

  return {
    [`${base}/${singular}`]: {
      post: operation(`create${name}`, `Cria ${aOne}`, messages.create, bodyFailures, { '201': created }, { requestBody: body }),
      options: optionsOperation(`options${name}`, tags, ['POST']),
    },
    [`${base}/${singular}/{id}`]: {
      parameters: [ref('parameters', 'id')],
      get: operation(`find${name}`, `Retorna ${aOne}`, messages.find, ['NOT_FOUND'], { '200': one, ...notModified }, ifNoneMatch),
      head: head(`head${name}`, messages.find, ['NOT_FOUND'], entityTag, ifNoneMatch, notModified),
      put: operation(`update${name}`, `Atualiza ${aOne}`, messages.update, [...bodyFailures, 'NOT_FOUND', 'PRECONDITION_FAILED'], { '200': one }, { requestBody: body, ...ifMatch }),
      delete: operation(`delete${name}`, `Apaga ${aOne}`, messages.delete, [...writeFailures, 'NOT_FOUND', 'PRECONDITION_FAILED'], { '200': deleted }, ifMatch),
      options: optionsOperation(`options${name}Id`, tags, ['GET', 'PUT', 'DELETE']),
    },
    [`${base}/${singular}/{id}/history`]: {
      parameters: [ref('parameters', 'id')],
      get: operation(`history${name}`, `Retorna o histórico de ${aOne}, em páginas`, messages.find, historyFailures, { '200': history }, historyQuery),
      head: head(`headHistory${name}`, messages.find, historyFailures, historyLink, historyQuery),
      options: optionsOperation(`optionsHistory${name}`, tags, ['GET'], ['id']),
    },
    [`${base}/${plural}`]: list('', `Lista ${theMany} (até o máximo da página)`, [], []),
    [`${base}/${plural}/{limit}`]: list('UpTo', `Lista ${agree('as primeiras', 'os primeiros')} {limit} ${resource.many}`, ['INVALID_PAGINATION'], ['limit']),
    [`${base}/${plural}/{skip}/{limit}`]: list('Page', `Lista {limit} ${resource.many} depois de pular {skip}`, ['INVALID_PAGINATION'], ['skip', 'limit']),
  };
}
