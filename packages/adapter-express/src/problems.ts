import { type FieldIssue, type WorkplanErrorKind } from '@workplan/core';

/** The machine codes of the contract's error table. */
export type ErrorCode =
  | 'INVALID_JSON'
  | 'VALIDATION_FAILED'
  | 'INVALID_PAGINATION'
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'ROUTE_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'HEADERS_TOO_LARGE'
  | 'STORAGE_UNAVAILABLE'
  | 'INTERNAL';

interface ProblemEntry {
  readonly status: number;
  /** A short sentence for people, in Brazilian Portuguese. */
  readonly detail: string;
}

/** The one table from error code to HTTP status and sentence. */
export const problems: Readonly<Record<ErrorCode, ProblemEntry>> = {
  INVALID_JSON: { status: 400, detail: 'O corpo da requisição está vazio ou não é um JSON válido.' },
  VALIDATION_FAILED: { status: 400, detail: 'Os dados enviados não atendem às regras.' },
  INVALID_PAGINATION: { status: 400, detail: 'Os parâmetros de paginação são inválidos.' },
  BAD_REQUEST: { status: 400, detail: 'A requisição não pôde ser lida.' },
  UNAUTHORIZED: { status: 401, detail: 'Chave de API ausente ou inválida.' },
  NOT_FOUND: { status: 404, detail: 'Nenhum registro tem este id.' },
  ROUTE_NOT_FOUND: { status: 404, detail: 'Nenhuma rota corresponde a este caminho.' },
  METHOD_NOT_ALLOWED: { status: 405, detail: 'Este caminho não aceita este método.' },
  CONFLICT: { status: 409, detail: 'Outro registro já usa este valor.' },
  PAYLOAD_TOO_LARGE: { status: 413, detail: 'O corpo da requisição passa de 16 KiB.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    detail: 'O corpo deve ser JSON (application/json) em UTF-8, sem codificação de conteúdo.',
  },
  RATE_LIMITED: { status: 429, detail: 'Limite de requisições excedido; tente mais tarde.' },
  HEADERS_TOO_LARGE: { status: 431, detail: 'Os cabeçalhos da requisição são grandes demais.' },
  STORAGE_UNAVAILABLE: { status: 503, detail: 'O armazenamento não respondeu a tempo; tente novamente.' },
  INTERNAL: { status: 500, detail: 'Erro interno.' },
};

/** How each domain refusal is answered. */
export const codeOfKind: Readonly<Record<WorkplanErrorKind, ErrorCode>> = {
  validation: 'VALIDATION_FAILED',
  invalidPage: 'INVALID_PAGINATION',
  notFound: 'NOT_FOUND',
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
  tooLong: 'Deve ter no máximo 200 caracteres.',
  controlCharacter: 'Não pode conter caracteres de controle.',
};

/** The message where no operation of the seed matched. */
export const routeMessages = {
  notFound: 'Rota não encontrada.',
  methodNotAllowed: 'Método não permitido.',
  badRequest: 'Requisição inválida.',
  unavailable: 'Serviço indisponível.',
} as const;
