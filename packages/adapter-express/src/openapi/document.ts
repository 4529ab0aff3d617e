import { routeMessages } from '../problems.js';
import { type KindDescription } from '@workplan/core';
import { changesPath } from './changes-path.js';
import { components } from './components.js';
import { ref, type Json } from './json.js';
import { errorResponses, failuresOf, routeResponses } from './error-responses.js';
import { optionsOperation, resourcePaths, success } from './operations.js';
import { webhooksPath } from './webhooks-path.js';

/** `a`, `a e b`, `a, b e c`: a list as a Portuguese sentence says it. */
const listed = (words: readonly string[]) => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} e ${words.at(-1) ?? ''}`);

/** The document's introduction, naming the resources it describes. */
function descriptionOf(resources: readonly KindDescription[]): string {
  const [first, ...others] = resources;
  const nouns = listed(resources.map((resource) => resource.many));
  const history = `\`GET /api/v1/${first?.singular ?? ''}/{id}/history\`${others.length === 0 ? '' : ` (e de ${listed(others.map((resource) => `\`${resource.singular}\``))})`}`;
  return `${nouns.charAt(0).toUpperCase()}${nouns.slice(1)}.

Toda operação de \`/api/v1\` pede o cabeçalho \`KEY\`. Uma chave de papel \`read\` faz só GET
e HEAD: com ela, criar, atualizar ou apagar responde 403 \`FORBIDDEN\`, antes de o corpo ser
lido. Os caminhos casam sem distinguir maiúsculas e com ou sem uma barra final. Um caminho
sem rota responde 404 \`ROUTE_NOT_FOUND\` (\`components.responses.RouteNotFound\`); um método
que o caminho não aceita responde 405 \`METHOD_NOT_ALLOWED\` com \`Allow\`
(\`components.responses.MethodNotAllowed\`). Toda resposta traz \`X-Request-Id\` e
\`X-Content-Type-Options: nosniff\`.

Toda escrita que dá certo fica guardada no mesmo passo que ela, com o nome da chave que a fez
(\`by\`): ${history} dá as alterações de um registro,
também depois de apagado, e \`GET /api/v1/changes\` as de todos, na ordem em que foram gravadas,
para outro sistema acompanhar (páginas com \`Link\`, espera com \`wait\`, ou \`text/event-stream\`).
Cada alteração é também enviada por POST, assinada (Standard Webhooks), às assinaturas do
operador (\`WEBHOOKS_FILE\`); \`GET /api/v1/webhooks\` diz onde está cada uma.`;
}

function healthPath(name: 'live' | 'ready', summary: string): Json {
  const tags = ['Health'];
  const codes = name === 'ready' ? (['STORAGE_UNAVAILABLE'] as const) : [];
  const failures = failuresOf([...codes, 'BAD_REQUEST', 'REQUEST_TIMEOUT', 'HEADERS_TOO_LARGE'], routeMessages.unavailable);
  return {
    get: {
      operationId: `health${name === 'live' ? 'Live' : 'Ready'}`,
      tags,
      summary,
      security: [],
      responses: { '200': success('Tudo certo.', ref('schemas', 'Success'), { success: true }), ...errorResponses(failures, 'value') },
    },
    head: {
      operationId: `head${name === 'live' ? 'Live' : 'Ready'}`,
      tags,
      summary: 'Como GET, só cabeçalhos',
      security: [],
      responses: { '200': { description: 'Só cabeçalhos.', headers: { 'X-Request-Id': ref('headers', 'XRequestId') } }, ...errorResponses(failures, 'value', false) },
    },
    options: optionsOperation(`options${name === 'live' ? 'Live' : 'Ready'}`, tags, ['GET']),
  };
}

const docsPageDescription = `A chave dada em "Authorize" fica só na página, sem ser guardada: recarregar a página ou fechar a aba a
esquece. A página e seus arquivos vêm com \`Content-Security-Policy\` (só os arquivos do próprio serviço, nenhum script ou estilo
embutido, imagens \`data:\` para os ícones, \`frame-ancestors 'none'\`) e \`Referrer-Policy: no-referrer\`: outro site não a mostra
num frame.`;

function docsPaths(): Record<string, Json> {
  const tags = ['Docs'];
  const page = (operationId: string, summary: string, mediaType: string, schema: Json, description?: string) => ({
    get: {
      operationId,
      tags,
      summary,
      ...(description === undefined ? {} : { description }),
      security: [],
      responses: {
        '200': { description: summary, headers: { 'X-Request-Id': ref('headers', 'XRequestId') }, content: { [mediaType]: { schema } } },
      },
    },
  });
  return {
    '/openapi.json': page('openApiDocument', 'Este documento', 'application/json', { type: 'object' }),
    '/docs': page('docsPage', 'A documentação interativa (Swagger UI)', 'text/html', { type: 'string' }, docsPageDescription),
  };
}

/** The OpenAPI 3.1 document of the service, built from the resource descriptions and the problems table. */
export function openApiDocument(resources: readonly KindDescription[]): Json {
  return {
    openapi: '3.1.0',
    info: { title: 'workplan', version: '1.0.0', description: descriptionOf(resources) },
    tags: [
      ...resources.map((r) => ({ name: r.schema, description: `/api/v1/${r.singular}, /api/v1/${r.plural}` })),
      { name: 'Changes', description: '/api/v1/changes: as alterações de todas as fontes, para acompanhar.' },
      { name: 'Webhooks', description: '/api/v1/webhooks: onde está a entrega de cada assinatura do operador.' },
      { name: 'Health', description: 'Sem chave.' },
      { name: 'Docs', description: 'Sem chave.' },
    ],
    security: [{ apiKey: [] }],
    paths: Object.assign(
      {},
      ...resources.map((r) => resourcePaths(r)),
      changesPath(resources),
      webhooksPath(resources),
      { '/health/live': healthPath('live', 'O processo atende'), '/health/ready': healthPath('ready', 'O armazenamento responde') },
      docsPaths(),
    ) as Json,
    components: components(resources, routeResponses()),
  };
}
