import { AFTER_PATTERN, DEFAULT_CHANGES_LIMIT, MAX_CHANGES_LIMIT, MAX_CHANGES_WAIT_SECONDS } from '@workplan/core';
import { type KindDescription } from '@workplan/core';
import { EXAMPLE_ID, ref, type Json } from './json.js';

/** A change id: the decimal place of the change in commit order. */
export const CHANGE_ID_PATTERN = '^[1-9][0-9]*$';
/** Digits of a number from 1 to the feed's largest page, leading zeros allowed as in a path. */
const LIMIT_PATTERN = `^0*([1-9][0-9]{0,2}|${MAX_CHANGES_LIMIT})$`;
/** Digits of a number of seconds from 1 to the longest wait. */
const WAIT_PATTERN = `^0*([1-9]|[12][0-9]|${MAX_CHANGES_WAIT_SECONDS})$`;

const EXAMPLE_TIMES = ['2026-11-22T14:36:43.123Z', '2026-11-22T15:02:10.456Z'] as const;

/** The schema of a change of one resource, and of its history. */
export function changeSchemas(resource: KindDescription): Record<string, Json> {
  const { schema: name, singular } = resource;
  const record = { oneOf: [ref('schemas', name), { type: 'null' }] };
  return {
    [`${name}Change`]: {
      type: 'object',
      description: `Uma escrita que deu certo, guardada no mesmo passo que ela: \`data\` é o registro depois dela (\`null\` ao apagar), \`previous\` o de antes (\`null\` ao criar).`,
      required: ['id', 'resource', 'recordId', 'action', 'at', 'by', 'data', 'previous'],
      additionalProperties: false,
      properties: {
        id: { type: 'string', pattern: CHANGE_ID_PATTERN, description: 'A posição da alteração na ordem em que foram gravadas; trate como opaca.' },
        resource: { const: singular },
        recordId: { type: 'string' },
        action: { enum: ['create', 'update', 'delete'] },
        at: { type: 'string', format: 'date-time', description: 'Quando a escrita foi feita: o `updatedAt` do registro ao criar e ao atualizar.' },
        by: { type: 'string', description: 'O nome da chave que escreveu (a impressão digital de uma chave sem nome); nunca a chave.' },
        data: record,
        previous: record,
      },
    },
    [`${name}HistoryEnvelope`]: envelopeOf({ type: 'array', items: ref('schemas', `${name}Change`) }),
  };
}

/** The schemas shared by the changes of every resource: one change of any, and a page of them. */
export function feedSchemas(resources: readonly KindDescription[]): Record<string, Json> {
  return {
    Change: { oneOf: resources.map((resource) => ref('schemas', `${resource.schema}Change`)) },
    ChangeListEnvelope: envelopeOf({ type: 'array', items: ref('schemas', 'Change') }),
  };
}

function envelopeOf(data: Json): Json {
  return { type: 'object', required: ['success', 'data'], additionalProperties: false, properties: { success: { const: true }, data } };
}

/** An example record of `resource`, at the example time `at`, holding `text`. */
function exampleRecord(resource: KindDescription, text: string, at: string): Json {
  return { id: EXAMPLE_ID, [resource.field]: text, createdAt: EXAMPLE_TIMES[0], updatedAt: at };
}

/** Example changes of a record of `resource`: its creation (change `first`), then an update of its text. */
export function exampleChanges(resource: KindDescription, first: number): Json[] {
  const created = exampleRecord(resource, resource.sample, EXAMPLE_TIMES[0]);
  const updated = exampleRecord(resource, `${resource.sample} (novo)`, EXAMPLE_TIMES[1]);
  const change = { resource: resource.singular, recordId: EXAMPLE_ID, by: 'Folha' };
  return [
    { id: String(first), ...change, action: 'create', at: EXAMPLE_TIMES[0], data: created, previous: null },
    { id: String(first + 1), ...change, action: 'update', at: EXAMPLE_TIMES[1], data: updated, previous: created },
  ];
}

const query = (name: string, description: string, pattern: string, example: string) => ({ name, in: 'query', required: false, description, schema: { type: 'string', pattern }, example });

/** The page of the feed or of a history: `after`, and `limit` with its default. */
function pageParameters(defaultLimit: number): Json[] {
  return [
    query('after', 'A alteração depois da qual ler (exclusiva), tirada do `Link: rel="next"` ou do `id` da última lida; sem ela, ou `0`, desde o começo do que é guardado.', AFTER_PATTERN, '41'),
    query('limit', `Quantas alterações no máximo: 1 a ${MAX_CHANGES_LIMIT}; ${defaultLimit} sem ele.`, LIMIT_PATTERN, String(defaultLimit)),
  ];
}

/** The parameters of a record's history: a page as the feed's (it never waits). */
export function historyParameters(): Json[] {
  return pageParameters(DEFAULT_CHANGES_LIMIT);
}

/** The query and header parameters of `/changes`. */
export function changesParameters(): Json[] {
  return [
    ...pageParameters(DEFAULT_CHANGES_LIMIT),
    query(
      'wait',
      `Segundos (1 a ${MAX_CHANGES_WAIT_SECONDS}) a segurar a resposta enquanto nada segue \`after\`: ela volta assim que uma alteração é gravada, ou com \`data: []\` no fim do prazo.`,
      WAIT_PATTERN,
      '30',
    ),
    {
      name: 'Last-Event-ID',
      in: 'header',
      required: false,
      description: 'Com `Accept: text/event-stream`: o `id` do último evento recebido, que o navegador manda ao reconectar; vale mais que `after`.',
      schema: { type: 'string', pattern: AFTER_PATTERN },
    },
  ];
}
