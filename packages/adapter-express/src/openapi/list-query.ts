import { cursorOf, MAX_SEARCH_LENGTH, searchOf, sortsOf, type KindDescription } from '@workplan/core';
import { cursorToken } from '../list-cursor.js';
import { COUNT_VALUES } from '../list-parameters.js';
import { EXAMPLE_ID, type Json } from './json.js';
import { phrasesOf } from './portuguese.js';

/** The cursor's alphabet: base64url, unpadded. */
const CURSOR_PATTERN = '^[A-Za-z0-9_-]+$';

/** The query parameters of a resource's list (the contract's "Finding records"), with examples. */
export function listQueryParameters(resource: KindDescription): Json[] {
  const { field } = resource;
  const { theMany, agree } = phrasesOf(resource);
  const search = resource.sample.toLowerCase();
  return [
    {
      name: 'q',
      in: 'query',
      required: false,
      description:
        `Busca: só ${theMany} cujo \`${field}\` contém \`q\`, os dois comparados sem distinguir maiúsculas, acentos e espaços repetidos ` +
        `(\`manutencao\` acha \`Manutenção Elétrica\`). 1 a ${MAX_SEARCH_LENGTH} caracteres depois de aparado; vazio não filtra.`,
      schema: { type: 'string' },
      example: search,
    },
    {
      name: 'sort',
      in: 'query',
      required: false,
      description:
        `A ordem: \`createdAt\` (a de sempre), \`updatedAt\` ou \`${field}\`; com \`-\` na frente, ao contrário. \`${field}\` ordena ` +
        `o texto sem distinguir maiúsculas e acentos (\`Álvaro\` junto de \`alvaro\`). Empates, pelo \`id\` crescente, também ao contrário.`,
      schema: { type: 'string', enum: sortsOf(field) },
      example: field,
    },
    {
      name: 'count',
      in: 'query',
      required: false,
      description: `\`true\`: a resposta traz \`X-Total-Count\`, quant${agree('as', 'os')} ${resource.many} atendem a \`q\` (tod${agree('as', 'os')}, sem \`q\`).`,
      schema: { type: 'string', enum: COUNT_VALUES },
      example: 'true',
    },
    {
      name: 'after',
      in: 'query',
      required: false,
      description:
        'Cursor opaco da próxima página, tirado do `Link: rel="next"`: só vale na lista, na ordem e na busca que o deram. ' +
        'Com `{skip}`, o salto conta depois do cursor.',
      schema: { type: 'string', pattern: CURSOR_PATTERN },
      // The cursor of a page of the other examples (that search, that order), so together they make a request that works.
      example: cursorToken(cursorOf(resource, { field: 'text', descending: false }, searchOf(search), { value: search, id: EXAMPLE_ID })),
    },
  ];
}
