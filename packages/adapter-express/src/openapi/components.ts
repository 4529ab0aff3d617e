import { MAX_TEXT_LENGTH } from '@workplan/core';
import { problems, type ErrorCode } from '../problems.js';
import { type KindDescription } from '@workplan/core';
import { changeSchemas, feedSchemas } from './change-schemas.js';
import { ref, type Json } from './json.js';
import { capitalized, phrasesOf } from './portuguese.js';

export const UUID_V7_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$';
export const ISO_MILLIS_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$';
export const DIGITS_PATTERN = '^[0-9]+$';
/** Digits naming a number of at least 1: `007` is 7, `0` and `000` are not. */
export const POSITIVE_DIGITS_PATTERN = '^0*[1-9][0-9]*$';
/**
 * Some visible text, no control character, maybe white space around it (which is trimmed).
 * What a pattern cannot say (well-formed Unicode, the 200 code points after trimming) the
 * description does.
 */
export const TEXT_PATTERN = '^\\s*[^\\u0000-\\u001F\\u007F]*[^\\s\\u0000-\\u001F\\u007F][^\\u0000-\\u001F\\u007F]*\\s*$';

function resourceSchemas(resource: KindDescription): Record<string, Json> {
  const { schema: name, field } = resource;
  const { aOne, agree } = phrasesOf(resource);
  const text = {
    type: 'string',
    minLength: 1,
    maxLength: MAX_TEXT_LENGTH,
    pattern: TEXT_PATTERN,
    description: `NFC, sem espaços nas pontas: 1 a ${MAX_TEXT_LENGTH} caracteres, Unicode bem formado, sem caracteres de controle.`,
  };
  const timestamp = { type: 'string', format: 'date-time', pattern: ISO_MILLIS_PATTERN };
  return {
    [name]: {
      type: 'object',
      description: `${capitalized(aOne)}, como o serviço ${agree('a', 'o')} guarda.`,
      required: ['id', field, 'createdAt', 'updatedAt'],
      additionalProperties: false,
      properties: {
        id: { type: 'string', format: 'uuid', pattern: UUID_V7_PATTERN, description: 'UUID v7, minúsculo.' },
        [field]: { ...text, description: 'NFC, sem espaços nas pontas; único sem distinguir maiúsculas.' },
        createdAt: timestamp,
        updatedAt: timestamp,
      },
    },
    [`${name}Input`]: {
      type: 'object',
      description: `Só \`${field}\` é lido; outros membros são ignorados.`,
      required: [field],
      // No maxLength here: the 200 code points are counted after trimming and NFC, so a
      // longer text sent (spaces around it, decomposed accents) may be a valid one.
      properties: {
        [field]: {
          type: 'string',
          minLength: 1,
          pattern: TEXT_PATTERN,
          description: `Aparado e normalizado (NFC) antes das regras: depois disso, 1 a ${MAX_TEXT_LENGTH} caracteres (pontos de código), Unicode bem formado, sem caracteres de controle.`,
        },
      },
    },
    [`${name}Envelope`]: envelope(ref('schemas', name)),
    [`${name}ListEnvelope`]: envelope({ type: 'array', items: ref('schemas', name) }),
    ...changeSchemas(resource),
  };
}

function envelope(data: Json): Json {
  return {
    type: 'object',
    required: ['success', 'data'],
    additionalProperties: false,
    properties: { success: { const: true }, data },
  };
}

const errorCodes = Object.keys(problems) as ErrorCode[];

const sharedSchemas: Record<string, Json> = {
  Success: {
    type: 'object',
    required: ['success'],
    additionalProperties: false,
    properties: { success: { const: true } },
  },
  Error: {
    type: 'object',
    required: ['success', 'message', 'error'],
    additionalProperties: false,
    properties: {
      success: { const: false },
      message: { type: 'string', description: 'A mensagem fixa da operação (ou da rota).' },
      error: {
        type: 'object',
        required: ['code', 'detail', 'requestId'],
        additionalProperties: false,
        properties: {
          code: { type: 'string', enum: errorCodes },
          detail: { type: 'string' },
          requestId: { type: 'string', description: 'Igual ao cabeçalho X-Request-Id.' },
          issues: { type: 'array', items: ref('schemas', 'Issue'), description: 'Só em VALIDATION_FAILED.' },
          existingId: { type: 'string', description: 'Só em CONFLICT: o registro que já tem o valor.' },
        },
      },
    },
  },
  Issue: {
    type: 'object',
    required: ['field', 'message'],
    additionalProperties: false,
    properties: { field: { type: 'string' }, message: { type: 'string' } },
  },
};

const headers: Record<string, Json> = {
  XRequestId: {
    description: 'O X-Request-Id enviado (1 a 128 caracteres ASCII visíveis) ou um novo.',
    required: true,
    schema: { type: 'string', pattern: '^[\\x21-\\x7E]{1,128}$' },
  },
  Location: { description: 'O caminho do registro criado.', required: true, schema: { type: 'string' } },
  Link: {
    description:
      'A próxima página, quando há mais registros: `</api/v1/scales/{skip}/{limit}>; rel="next"` numa lista simples; com `q`, `sort` ou `after`, ' +
      'o mesmo caminho sem `{skip}` (com o `{limit}` pedido), os mesmos parâmetros e o cursor `after`: `</api/v1/scales/10?sort=value&after=...>; rel="next"`.',
    schema: { type: 'string', pattern: '^<[^>]+>; rel="next"$' },
  },
  ChangesLink: {
    description:
      'Em toda resposta JSON: a próxima página, com os mesmos `limit` e `wait` e o `after` da última alteração da página ' +
      '(o mesmo `after` quando ela vem vazia): `</api/v1/changes?after=42&wait=30>; rel="next"`.',
    schema: { type: 'string', pattern: '^<[^>]+>; rel="next"$' },
  },
  HistoryLink: {
    description:
      'Enquanto seguem mais alterações do registro: a próxima página, com o mesmo `limit` e o `after` da última alteração ' +
      'da página: `</api/v1/scale/{id}/history?after=42&limit=50>; rel="next"`. Ausente na última página.',
    schema: { type: 'string', pattern: '^<[^>]+>; rel="next"$' },
  },
  XTotalCount: {
    description: 'Só com `count=true`: quantos registros atendem a `q` (todos, sem `q`), não só os da página.',
    schema: { type: 'string', pattern: DIGITS_PATTERN },
  },
  RetryAfter: { description: 'Segundos a esperar.', required: true, schema: { type: 'string', pattern: DIGITS_PATTERN } },
  Allow: { description: 'Os métodos do caminho.', required: true, schema: { type: 'string' } },
  ETag: {
    description: 'A etiqueta forte da versão atual do registro; muda a cada atualização dele e com nada mais. Opaca: compare, não interprete.',
    required: true,
    schema: { type: 'string', pattern: '^"[\\x21\\x23-\\x7E]*"$' },
  },
};

const parameters: Record<string, Json> = {
  ifMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description:
      'Só altera ou apaga se o registro ainda estiver numa destas versões: uma ou mais etiquetas (`"..."`, separadas por vírgula) ou `*`. ' +
      'Comparação forte: uma etiqueta fraca (`W/"..."`) nunca coincide. Sem coincidência: 412, nada muda. Sem o cabeçalho, a requisição segue como sempre.',
    schema: { type: 'string' },
  },
  ifNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'Se a etiqueta atual do registro estiver na lista (comparação fraca) ou for `*`: 304 sem corpo, com `ETag`.',
    schema: { type: 'string' },
  },
  id: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'Qualquer texto, comparado exatamente; um que não nomeia registro é 404.',
    schema: { type: 'string', minLength: 1 },
  },
  skip: {
    name: 'skip',
    in: 'path',
    required: true,
    description: 'Registros a pular: dígitos decimais, 0 a 10.000.000.',
    schema: { type: 'string', pattern: DIGITS_PATTERN },
  },
  limit: {
    name: 'limit',
    in: 'path',
    required: true,
    description: 'Tamanho da página: dígitos decimais, 1 ao máximo (LIST_MAX_LIMIT, 1000 por padrão).',
    schema: { type: 'string', pattern: POSITIVE_DIGITS_PATTERN },
  },
};

/** The components section: schemas of every resource, headers, parameters and the key scheme. */
export function components(resources: readonly KindDescription[], responses: Record<string, Json>): Json {
  return {
    schemas: Object.assign({}, ...resources.map(resourceSchemas), feedSchemas(resources), sharedSchemas) as Json,
    headers,
    parameters,
    responses,
    securitySchemes: {
      apiKey: { type: 'apiKey', in: 'header', name: 'KEY', description: 'Uma chave configurada em API_KEYS ou API_KEYS_FILE, com nome e papel: `write` (o padrão) faz tudo, `read` só GET e HEAD.' },
    },
  };
}
