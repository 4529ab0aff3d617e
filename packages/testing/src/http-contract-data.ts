import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { type HttpAnswer } from './http-client.js';

/** A service started for a test file; the suite closes it after. */
export interface ServiceUnderTest {
  readonly baseUrl: string;
  /** A `write` key: the suite's requests use it unless they say otherwise. */
  readonly key: string;
  /** A `read` key, named, for the roles' cases. */
  readonly readKey: string;
  readonly maxPageSize: number;
  close(): Promise<void>;
}

/** The contract's view of a resource: path words, field and the seed's exact messages. */
export interface ContractResource {
  readonly singular: string;
  readonly plural: string;
  readonly field: string;
  readonly messages: Readonly<Record<'create' | 'update' | 'find' | 'list' | 'delete', string>>;
}

// Written out from the seed, not imported from the adapter: a test that read the code's own
// messages could not notice the code saying the wrong thing.
export const contractResources: readonly ContractResource[] = [
  {
    singular: 'scale',
    plural: 'scales',
    field: 'value',
    messages: {
      create: 'Não foi possível criar a escala de trabalho.',
      update: 'Não foi possível atualizar a escala de trabalho.',
      find: 'Não foi possível retornar a escala de trabalho.',
      list: 'Não foi possível retornar as escalas de trabalho.',
      delete: 'Não foi possível deletar a escala de trabalho.',
    },
  },
  {
    singular: 'costCenter',
    plural: 'costCenters',
    field: 'title',
    messages: {
      create: 'Não foi possível criar o centro de custo.',
      update: 'Não foi possível atualizar o centro de custo.',
      find: 'Não foi possível retornar o centro de custo.',
      list: 'Não foi possível retornar os centros de custo.',
      delete: 'Não foi possível deletar o centro de custo.',
    },
  },
];

export const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u;
export const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/u;

/** A text no other test uses, so tests never clash with each other. */
export function uniqueText(prefix = 'texto'): string {
  return `${prefix} ${randomUUID().slice(0, 13)}`;
}

/** Asserts the headers every answer of `/api` and `/health` carries. */
export function expectCommonHeaders(answer: HttpAnswer): void {
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['x-powered-by']).toBeUndefined();
  expect(answer.headers['x-request-id']).toMatch(/^[\x21-\x7E]{1,128}$/u);
}

/** Asserts an error answer: status, code, the exact message, and the envelope around them. */
export function expectProblem(answer: HttpAnswer, status: number, code: string, message: string): void {
  expect({ status: answer.status, body: answer.json }).toMatchObject({
    status,
    body: { success: false, message, error: { code, requestId: answer.headers['x-request-id'] } },
  });
  expect(answer.json).toHaveProperty('error.detail', expect.any(String));
  expectCommonHeaders(answer);
}

/** Asserts an error answer as `expectProblem` does, and that its envelope holds nothing else. */
export function expectBareProblem(answer: HttpAnswer, status: number, code: string, message: string): void {
  expectProblem(answer, status, code, message);
  expect(answer.json).toEqual({
    success: false,
    message,
    error: { code, detail: expect.any(String) as unknown, requestId: answer.headers['x-request-id'] },
  });
}

/** The `data` member of a success answer, after checking the status and envelope. */
export function dataOf(answer: HttpAnswer, status: number): unknown {
  expect({ status: answer.status, success: (answer.json as { success?: unknown } | undefined)?.success }).toEqual({
    status,
    success: true,
  });
  expectCommonHeaders(answer);
  return (answer.json as { data?: unknown }).data;
}

/** A request with the service's key unless `key` says otherwise (`null`: no KEY header). */
export type ContractCall = (
  call: import('./http-client.js').HttpCall & { key?: string | string[] | null; json?: unknown },
) => Promise<HttpAnswer>;

/** The target of an answer's `Link: <...>; rel="next"`, the one form the service writes; undefined without one. */
export function nextLinkOf(answer: HttpAnswer): string | undefined {
  return /^<([^>]+)>; rel="next"$/u.exec(String(answer.headers.link ?? ''))?.[1];
}
