import { send } from '@workplan/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMemoryApp, type MemoryApp } from './testing/memory-app.js';

const key = 'refusal-details-key-0123';
let app: MemoryApp;

beforeAll(async () => {
  app = await startMemoryApp({ key, workplan: { maxPageSize: 500 } });
});
afterAll(() => app.close());

const errorOf = async (path: string) => {
  const answer = await send(app.baseUrl, { path, headers: { key } });
  return answer.json as { message: string; error: { code: string; detail: string } };
};

const LIST = 'Não foi possível retornar as escalas de trabalho.';
const CHANGES = 'Não foi possível retornar as alterações.';
const SORTS = 'createdAt, -createdAt, updatedAt, -updatedAt, value, -value';

// Each refusal says what would have been taken: the bound, the values, the form; the message stays the operation's.
describe('the detail of a refused parameter', () => {
  it.each([
    ['/api/v1/scales/0/5000', 'INVALID_PAGINATION', 'O parâmetro limit deve ser um número inteiro de 1 a 500.'],
    ['/api/v1/scales/0/0', 'INVALID_PAGINATION', 'O parâmetro limit deve ser um número inteiro de 1 a 500.'],
    ['/api/v1/scales/abc', 'INVALID_PAGINATION', 'O parâmetro limit deve ser um número inteiro de 1 a 500.'],
    ['/api/v1/scales/10000001/1', 'INVALID_PAGINATION', 'O parâmetro skip deve ser um número inteiro de 0 a 10000000.'],
    ['/api/v1/scales/-1/1', 'INVALID_PAGINATION', 'O parâmetro skip deve ser um número inteiro de 0 a 10000000.'],
    ['/api/v1/scales?sort=bogus', 'INVALID_QUERY', `O parâmetro sort deve ser um destes: ${SORTS}.`],
    ['/api/v1/scales?count=yes', 'INVALID_QUERY', 'O parâmetro count só aceita true.'],
    ['/api/v1/scales?after=garbage!', 'INVALID_QUERY', 'O parâmetro after deve ser o cursor do Link rel="next" de uma página desta lista, com a mesma ordem e busca.'],
    ['/api/v1/scales?after=xyz', 'INVALID_QUERY', 'O parâmetro after deve ser o cursor do Link rel="next" de uma página desta lista, com a mesma ordem e busca.'],
    [`/api/v1/scales?q=${'x'.repeat(201)}`, 'INVALID_QUERY', 'O parâmetro q deve ser um texto de no máximo 200 caracteres, em Unicode bem formado.'],
    ['/api/v1/scales?q=a&q=b', 'INVALID_QUERY', 'O parâmetro q deve vir uma só vez, como um texto.'],
    ['/api/v1/scales?sort[]=value', 'INVALID_QUERY', 'O parâmetro sort deve vir uma só vez, como um texto.'],
    ['/api/v1/scales?q=%FF', 'INVALID_QUERY', 'O parâmetro q deve ser UTF-8 em percent-encoding válido.'],
  ])('%s says %s and what it takes', async (path, code, detail) => {
    expect(await errorOf(path)).toMatchObject({ message: LIST, error: { code, detail } });
  });

  it.each([
    ['/api/v1/changes?limit=5000', 'O parâmetro limit deve ser um número inteiro de 1 a 1000.'],
    ['/api/v1/changes?limit=1e3', 'O parâmetro limit deve ser um número inteiro de 1 a 1000.'],
    ['/api/v1/changes?wait=31', 'O parâmetro wait deve ser um número inteiro de segundos, de 1 a 30.'],
    ['/api/v1/changes?wait=-1', 'O parâmetro wait deve ser um número inteiro de segundos, de 1 a 30.'],
    ['/api/v1/changes?after=abc', 'O parâmetro after deve ser o id de uma alteração, ou 0 para o começo.'],
  ])('%s on the changes says what it takes', async (path, detail) => {
    expect(await errorOf(path)).toMatchObject({ message: CHANGES, error: { code: 'INVALID_QUERY', detail } });
  });
});
