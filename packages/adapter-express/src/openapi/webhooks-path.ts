import { type KindDescription } from '@workplan/core';
import { webhooksDescription } from '../resources.js';
import { ISO_MILLIS_PATTERN } from './components.js';
import { type Json } from './json.js';
import { errorResponses, failuresOf } from './error-responses.js';
import { apiFailures, optionsOperation, requestId, success } from './operations.js';

const tags = ['Webhooks'];

/** Where one subscription of WEBHOOKS_FILE stands, as `GET /api/v1/webhooks` lists it. */
function subscriptionStatus(resources: readonly KindDescription[]): Json {
  const moment = { type: ['string', 'null'], format: 'date-time', pattern: ISO_MILLIS_PATTERN };
  return {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'url', 'resources', 'cursor', 'lagChanges', 'lagSeconds', 'lastError', 'failingSince', 'nextAttempt', 'failing'],
    properties: {
      name: { type: 'string', minLength: 1 },
      url: {
        type: 'string',
        description:
          'A URL da assinatura. Uma chave `write` a vê inteira, como o arquivo a traz; uma chave `read` a vê sem usuário, senha, consulta nem fragmento (onde costuma ir o token do recebedor). O segredo nunca aparece.',
      },
      resources: { type: 'array', items: { enum: resources.map((resource) => resource.singular) } },
      cursor: { type: 'string', pattern: '^(0|[1-9][0-9]*)$', description: 'O id da última alteração confirmada (ou pulada); `0` antes da primeira.' },
      lagChanges: { type: 'integer', minimum: 0, description: 'Quantas alterações guardadas seguem o cursor.' },
      lagSeconds: { type: 'number', minimum: 0, description: 'Há quanto tempo foi gravada a mais antiga delas; 0 sem nenhuma.' },
      lastError: { type: ['string', 'null'], description: 'O que a última tentativa encontrou, enquanto a alteração seguinte não é confirmada.' },
      failingSince: moment,
      nextAttempt: { ...moment, description: 'Quando vem a próxima tentativa; `null` sem falha ou depois de desistir.' },
      failing: { type: 'boolean', description: 'Desistiu depois de 24 horas de tentativas: nada é enviado até um SIGHUP ou um reinício.' },
    },
  };
}

const example = (resources: readonly KindDescription[]) => ({
  name: 'folha',
  url: 'https://folha.example/workplan',
  resources: resources.map((resource) => resource.singular),
  cursor: '41',
  lagChanges: 1,
  lagSeconds: 3.2,
  lastError: 'HTTP 503',
  failingSince: '2026-11-22T15:02:11.000Z',
  nextAttempt: '2026-11-22T15:02:14.500Z',
  failing: false,
});

/** The path item of the webhooks' state: GET, HEAD and OPTIONS, for any key. */
export function webhooksPath(resources: readonly KindDescription[], base = '/api/v1'): Record<string, Json> {
  const failures = failuresOf(apiFailures, webhooksDescription.message);
  const schema = { type: 'object', required: ['success', 'data'], additionalProperties: false, properties: { success: { const: true }, data: { type: 'array', items: subscriptionStatus(resources) } } };
  return {
    [`${base}/${webhooksDescription.path}`]: {
      get: {
        operationId: 'listWebhooks',
        tags,
        summary: 'Onde está cada assinatura de webhooks (WEBHOOKS_FILE)',
        responses: { '200': success('As assinaturas, na ordem do arquivo; nenhuma sem WEBHOOKS_FILE.', schema, { success: true, data: [example(resources)] }), ...errorResponses(failures, 'value') },
      },
      head: {
        operationId: 'headWebhooks',
        tags,
        summary: 'Como GET, só cabeçalhos',
        responses: { '200': { description: 'Só cabeçalhos.', headers: requestId }, ...errorResponses(failures, 'value', false) },
      },
      options: optionsOperation('optionsWebhooks', tags, ['GET']),
    },
  };
}
