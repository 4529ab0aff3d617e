import { WorkplanError } from '@workplan/core';
import { problemOf } from '../problem-of.js';
import { problems, routeMessages, type ErrorCode } from '../problems.js';
import { EXAMPLE_ID, ref, type Json } from './json.js';

/** A failure an operation can answer, with the messages its body can carry. */
export interface Failure {
  readonly code: ErrorCode;
  readonly messages: readonly string[];
  /** A refusal of the operation's, thrown as the service throws it: the example's detail is the one it answers. */
  readonly refused?: unknown;
}

/** What `refuse` throws, as the service would throw it while answering. */
export function thrownBy(refuse: () => void): unknown {
  try {
    refuse();
  } catch (error) {
    return error;
  }
  throw new Error('the example refusal refused nothing');
}

/** Codes the HTTP parser also answers, before any route matched. */
const alsoFromParser: ReadonlySet<ErrorCode> = new Set(['BAD_REQUEST', 'REQUEST_TIMEOUT']);

/**
 * The failures of an operation whose seed message is `message`. The HTTP parser answers
 * 431, and some 400s and 408s (headers that never end), before any route matched, so those
 * carry the route-less message too.
 */
export function failuresOf(codes: readonly ErrorCode[], message: string, refused: Partial<Record<ErrorCode, unknown>> = {}): Failure[] {
  return codes.map((code) => {
    if (code === 'HEADERS_TOO_LARGE') return { code, messages: [routeMessages.badRequest] };
    if (alsoFromParser.has(code) && message !== routeMessages.badRequest) return { code, messages: [message, routeMessages.badRequest] };
    return code in refused ? { code, messages: [message], refused: refused[code] } : { code, messages: [message] };
  });
}

const EXAMPLE_REQUEST_ID = '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f';

/**
 * The error responses of one operation, one per status, each listing its codes and
 * messages as enums (the drift test holds the service to them) with an example per code.
 * `withBody: false` is for HEAD, whose answers carry the same status and headers only.
 */
export function errorResponses(failures: readonly Failure[], field: string, withBody = true): Record<string, Json> {
  const byStatus = new Map<number, Failure[]>();
  for (const failure of failures) {
    const status = problems[failure.code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), failure]);
  }
  const responses: Record<string, Json> = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    const codes = group.map((f) => f.code);
    const headers = {
      'X-Request-Id': ref('headers', 'XRequestId'),
      ...(codes.some((c) => problems[c].retryAfter !== undefined) ? { 'Retry-After': ref('headers', 'RetryAfter') } : {}),
    };
    const description = group.map(describedFailure).join(' ');
    responses[String(status)] = withBody ? { description, headers, content: errorContent(group, field) } : { description, headers };
  }
  return responses;
}

function errorContent(group: readonly Failure[], field: string): Json {
  const messages = [...new Set(group.flatMap((f) => f.messages))];
  const schema = {
    allOf: [
      ref('schemas', 'Error'),
      {
        type: 'object',
        properties: {
          message: { enum: messages },
          error: { type: 'object', properties: { code: { enum: group.map((f) => f.code) } } },
        },
      },
    ],
  };
  const examples = Object.fromEntries(group.map((failure) => [failure.code, example(failure, field)]));
  return { 'application/json': { schema, examples } };
}

function describedFailure({ code, refused }: Failure): string {
  const { detail } = problems[code];
  return refused === undefined ? `\`${code}\`: ${detail}` : `\`${code}\`: ${detail.slice(0, -1)}; o \`detail\` diz qual parâmetro e o que ele aceita.`;
}

function example({ code, messages, refused }: Failure, field: string): Json {
  const detail = (refused === undefined ? undefined : problemOf(refused).detail) ?? problems[code].detail;
  const error = { code, detail, requestId: EXAMPLE_REQUEST_ID, ...exampleMembers(code, field) };
  return { summary: detail, value: { success: false, message: messages[0], error } };
}

/** The members a code's answer carries, made by the same function the answers use. */
function exampleMembers(code: ErrorCode, field: string): Json {
  if (code === 'VALIDATION_FAILED') return problemOf(WorkplanError.validation([{ field, rule: 'empty' }])).members;
  if (code === 'CONFLICT') return problemOf(WorkplanError.conflict(EXAMPLE_ID)).members;
  return {};
}

/** Answers of no operation: a path no route matches, and a method a path does not take. */
export function routeResponses(): Record<string, Json> {
  const notFound = errorResponses([{ code: 'ROUTE_NOT_FOUND', messages: [routeMessages.notFound] }], 'value')['404'];
  const notAllowed = errorResponses([{ code: 'METHOD_NOT_ALLOWED', messages: [routeMessages.methodNotAllowed] }], 'value')['405'];
  const allow = { 'X-Request-Id': ref('headers', 'XRequestId'), Allow: ref('headers', 'Allow') };
  return {
    RouteNotFound: { ...notFound, description: 'Nenhuma rota corresponde ao caminho (qualquer método, sem chave).' },
    MethodNotAllowed: {
      ...notAllowed,
      description: 'O caminho existe, mas não com este método (antes da chave); `Allow` lista os métodos.',
      headers: allow,
    },
  };
}
