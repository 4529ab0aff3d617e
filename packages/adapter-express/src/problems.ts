import { MAX_TEXT_LENGTH, type FieldIssue, type WorkplanErrorKind } from '@workplan/core';

/** The machine codes of the contract's error table. */
export type ErrorCode =
  | 'INVALID_JSON'
  | 'VALIDATION_FAILED'
  | 'INVALID_PAGINATION'
  | 'INVALID_QUERY'
  | 'BAD_REQUEST'
  | 'REQUEST_TIMEOUT'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'ROUTE_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'PRECONDITION_FAILED'
  | 'CONFLICT'
  | 'CURSOR_EXPIRED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'TOO_MANY_FOLLOWERS'
  | 'FOLLOWERS_FULL'
  | 'HEADERS_TOO_LARGE'
  | 'STORAGE_UNAVAILABLE'
  | 'INTERNAL';

/** The message where no operation of the seed matched. */
export const routeMessages = {
  notFound: 'Rota não encontrada.',
  methodNotAllowed: 'Método não permitido.',
  badRequest: 'Requisição inválida.',
  unavailable: 'Serviço indisponível.',
} as const;

/** How a code is answered. */
export interface ProblemEntry {
  readonly status: number;
  /** A short sentence for people, in Brazilian Portuguese. */
  readonly detail: string;
  /**
   * When to try again: a fixed number of seconds for `Retry-After`, or `limiter` where
   * the rate limiter computes it. Unset for answers that retrying would not change.
   */
  readonly retryAfter?: number | 'limiter';
  /** The message where no operation matched; `Requisição inválida.` when unset. */
  readonly routeMessage?: string;
}

/** The contract's body size limit. */
export const BODY_LIMIT_BYTES = 16 * 1024;

/** Seconds a client waits before trying a storage that did not answer. */
export const STORAGE_RETRY_SECONDS = 2;

/**
 * Seconds a follower refused by a bound waits before asking again: a slot frees when another
 * follower leaves, which no one can foretell, so a pause long enough that a crowd of refused
 * followers does not come back all at once, short enough that a console catches up soon.
 */
export const FOLLOWER_RETRY_SECONDS = 5;

/** The one table from error code to status, sentence and headers. */
export const problems: Readonly<Record<ErrorCode, ProblemEntry>> = {
  INVALID_JSON: { status: 400, detail: 'O corpo da requisição está vazio ou não é um JSON válido.' },
  VALIDATION_FAILED: { status: 400, detail: 'Os dados enviados não atendem às regras.' },
  INVALID_PAGINATION: { status: 400, detail: 'Os parâmetros de paginação são inválidos.' },
  // Also a bad sort, count or cursor, not only a bad search: the sentence names none of them.
  INVALID_QUERY: { status: 400, detail: 'Os parâmetros de consulta da URL são inválidos.' },
  BAD_REQUEST: { status: 400, detail: 'A requisição não pôde ser lida.' },
  // The client, not the storage, was slow: its headers or body did not arrive in time. Where
  // the headers never ended no operation matched, and it says `Requisição inválida.`, as the
  // other answers of the HTTP parser do.
  REQUEST_TIMEOUT: { status: 408, detail: 'Os cabeçalhos ou o corpo da requisição não chegaram a tempo.' },
  UNAUTHORIZED: { status: 401, detail: 'Chave de API ausente ou inválida.' },
  FORBIDDEN: { status: 403, detail: 'Esta chave de API só pode ler; não pode criar, alterar nem apagar.' },
  NOT_FOUND: { status: 404, detail: 'Nenhum registro tem este id.', routeMessage: routeMessages.notFound },
  ROUTE_NOT_FOUND: { status: 404, detail: 'Nenhuma rota corresponde a este caminho.', routeMessage: routeMessages.notFound },
  METHOD_NOT_ALLOWED: {
    status: 405,
    detail: 'Este caminho não aceita este método.',
    routeMessage: routeMessages.methodNotAllowed,
  },
  PRECONDITION_FAILED: { status: 412, detail: 'O registro foi alterado desde a versão informada em If-Match.' },
  CONFLICT: { status: 409, detail: 'Outro registro já usa este valor.' },
  // Gone for good, unlike a 404: the follower cannot catch up by changes and must read the lists again.
  CURSOR_EXPIRED: { status: 410, detail: 'As alterações depois deste ponto não são mais guardadas: leia as listas de novo.' },
  PAYLOAD_TOO_LARGE: { status: 413, detail: `O corpo da requisição passa de ${BODY_LIMIT_BYTES / 1024} KiB.` },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    detail: 'O corpo deve ser JSON (application/json) em UTF-8, sem codificação de conteúdo.',
  },
  RATE_LIMITED: { status: 429, detail: 'Limite de requisições excedido; tente mais tarde.', retryAfter: 'limiter' },
  TOO_MANY_FOLLOWERS: {
    status: 429,
    detail: 'Esta chave já acompanha as alterações em conexões demais; feche uma ou tente mais tarde.',
    retryAfter: FOLLOWER_RETRY_SECONDS,
  },
  HEADERS_TOO_LARGE: { status: 431, detail: 'Os cabeçalhos da requisição são grandes demais.' },
  STORAGE_UNAVAILABLE: {
    status: 503,
    detail: 'O armazenamento está indisponível no momento; tente novamente.',
    retryAfter: STORAGE_RETRY_SECONDS,
    routeMessage: routeMessages.unavailable,
  },
  // The instance, not the storage, is full: it holds as many followers as it was set to.
  FOLLOWERS_FULL: {
    status: 503,
    detail: 'O serviço já acompanha as alterações no máximo de conexões; tente mais tarde.',
    retryAfter: FOLLOWER_RETRY_SECONDS,
  },
  INTERNAL: { status: 500, detail: 'Erro interno.' },
};

/** The headers the table says every answer with `code` carries. */
export function headersOf(code: ErrorCode): Readonly<Record<string, string>> {
  const { retryAfter } = problems[code];
  return typeof retryAfter === 'number' ? { 'Retry-After': String(retryAfter) } : {};
}

/** How each domain refusal is answered. */
export const codeOfKind: Readonly<Record<WorkplanErrorKind, ErrorCode>> = {
  validation: 'VALIDATION_FAILED',
  invalidPage: 'INVALID_PAGINATION',
  invalidQuery: 'INVALID_QUERY',
  cursorExpired: 'CURSOR_EXPIRED',
  notFound: 'NOT_FOUND',
  stale: 'PRECONDITION_FAILED',
  conflict: 'CONFLICT',
  storageUnavailable: 'STORAGE_UNAVAILABLE',
};

/** The sentence for each value rule a field can break. */
export const issueMessages: Readonly<Record<FieldIssue['rule'], string>> = {
  notObject: 'O corpo deve ser um objeto JSON.',
  required: 'Campo obrigatório.',
  notString: 'Deve ser um texto.',
  malformedUnicode: 'Contém caracteres Unicode inválidos.',
  empty: 'Não pode ficar vazio.',
  tooLong: `Deve ter no máximo ${MAX_TEXT_LENGTH} caracteres.`,
  controlCharacter: 'Não pode conter caracteres de controle.',
};
