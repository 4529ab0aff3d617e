import { checkChangesLimit, MAX_CHANGES_LIMIT } from '@workplan/core';
import { type KindDescription } from '@workplan/core';
import { changesDescription } from '../resources.js';
import { changesParameters, exampleChanges } from './change-schemas.js';
import { ref, type Json } from './json.js';
import { errorResponses, failuresOf, thrownBy } from './error-responses.js';
import { apiFailures, optionsOperation, requestId } from './operations.js';

const tags = ['Changes'];

const streamDescription = `Com \`Accept: text/event-stream\`, as mesmas alterações como eventos Server-Sent Events, sem fim:
cada uma um evento com \`id:\` (o id da alteração) e \`data:\` (a alteração em JSON), as novas assim que gravadas; uma linha
de comentário (\`:\`) a cada 15 segundos sem alteração mantém a conexão viva. Ao reconectar, o navegador manda
\`Last-Event-ID\` e o fluxo continua dali. Um ponto de partida inválido ou não mais guardado é respondido antes do fluxo,
em JSON (400, 410). O fluxo termina quando o cliente sai ou o serviço para. Quando a chave deixa de valer (tirada de
\`API_KEYS_FILE\`, e SIGHUP), uma espera (\`wait\`) é respondida na hora com 401 \`UNAUTHORIZED\`, e o fluxo termina depois de um
evento \`problem\` (sem \`id:\`) cujo \`data:\` é essa mesma falha no envelope.

Cada instância acompanha no máximo \`FOLLOWERS_PER_KEY\` (100 por padrão) fluxos e esperas (\`wait\`) por chave e
\`FOLLOWERS_MAX\` (2000) ao todo; uma página sem \`wait\` nunca é limitada. Além de um limite, a requisição é recusada na hora,
antes de ler qualquer alteração, com \`Retry-After\`: 429 \`TOO_MANY_FOLLOWERS\` pelo limite da chave, 503 \`FOLLOWERS_FULL\`
pelo total. Quem fecha um fluxo libera o lugar na hora.`;

/** The path item of the changes feed: its page (with a long poll), its event stream, HEAD and OPTIONS. */
export function changesPath(resources: readonly KindDescription[], base = '/api/v1'): Record<string, Json> {
  const { message } = changesDescription;
  // A refusal as the feed makes it: a page over its largest.
  const refused = { INVALID_QUERY: thrownBy(() => {
    checkChangesLimit(MAX_CHANGES_LIMIT + 1);
  }) };
  const codes = ['INVALID_QUERY', 'CURSOR_EXPIRED', 'TOO_MANY_FOLLOWERS', 'FOLLOWERS_FULL', ...apiFailures] as const;
  const failures = errorResponses(failuresOf(codes, message, refused), 'value');
  const changes = resources.flatMap((resource, index) => exampleChanges(resource, 41 + 2 * index));
  const events = changes.map((change) => `id: ${String(change.id)}\ndata: ${JSON.stringify(change)}\n\n`).join('');
  const link = { Link: ref('headers', 'ChangesLink') };
  const page = {
    description: `As alterações das ${resources.length} fontes depois de \`after\`, na ordem em que foram gravadas. ${streamDescription}`,
    headers: { ...requestId, ...link },
    content: {
      'application/json': { schema: ref('schemas', 'ChangeListEnvelope'), example: { success: true, data: changes } },
      'text/event-stream': { schema: { type: 'string' }, example: `${events}:\n\n` },
    },
  };
  return {
    [`${base}/${changesDescription.path}`]: {
      get: { operationId: 'listChanges', tags, summary: 'Lista as alterações, ou as acompanha', parameters: changesParameters(), responses: { '200': page, ...failures } },
      head: {
        operationId: 'headChanges',
        tags,
        summary: 'Como GET, só cabeçalhos',
        parameters: changesParameters().filter((parameter) => parameter.in === 'query'),
        responses: {
          '200': { description: 'Só cabeçalhos.', headers: { ...requestId, ...link } },
          ...errorResponses(failuresOf(codes, message, refused), 'value', false),
        },
      },
      options: optionsOperation('optionsChanges', tags, ['GET']),
    },
  };
}
