import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { type HttpAnswer } from './http-client.js';
import { dataOf, nextLinkOf, type ContractCall, type ContractResource } from './http-contract-data.js';

export type Json = Record<string, unknown>;

/** A word no other record holds, to find a test's own records with `q` among everyone's. */
export function searchToken(): string {
  return `k${randomUUID().replaceAll('-', '').slice(0, 10)}`;
}

/** The query string of `parameters`, each value percent-encoded as a browser's URLSearchParams would not (`%20`, not `+`). */
export function queryOf(parameters: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(parameters).map(([name, value]) => `${name}=${encodeURIComponent(value)}`);
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/** Waits a few milliseconds, so records made on either side have different times. */
export function tick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 4));
}

/** What a finding test does with one resource over HTTP. */
export interface FindingTools {
  readonly create: (text: string) => Promise<Json>;
  readonly update: (id: string, text: string) => Promise<Json>;
  readonly remove: (id: string) => Promise<void>;
  /** The records of a list answer, after checking its status and envelope. */
  readonly list: (path: string) => Promise<{ records: Json[]; answer: HttpAnswer }>;
  /** Follows `next` from `path` to the end; `between` runs after each page is read. */
  readonly walk: (path: string, between?: (page: Json[]) => Promise<void>) => Promise<{ records: Json[]; paths: string[] }>;
  readonly ids: (records: readonly Json[]) => string[];
}

/** The most pages a walk follows before it counts as a loop. */
const MAX_PAGES = 200;

export function findingTools(call: ContractCall, { singular, field }: ContractResource): FindingTools {
  const one = (id: string) => `/api/v1/${singular}/${id}`;
  const list = async (path: string) => {
    const answer = await call({ path });
    return { records: dataOf(answer, 200) as Json[], answer };
  };
  return {
    create: async (text) => dataOf(await call({ method: 'POST', path: `/api/v1/${singular}`, json: { [field]: text } }), 201) as Json,
    update: async (id, text) => dataOf(await call({ method: 'PUT', path: one(id), json: { [field]: text } }), 200) as Json,
    remove: async (id) => {
      dataOf(await call({ method: 'DELETE', path: one(id) }), 200);
    },
    list,
    walk: async (first, between) => {
      const records: Json[] = [];
      const paths: string[] = [];
      let path: string | undefined = first;
      while (path !== undefined) {
        expect(paths.length, `a walk from ${first} that does not end`).toBeLessThan(MAX_PAGES);
        paths.push(path);
        const page = await list(path);
        records.push(...page.records);
        path = nextLinkOf(page.answer);
        if (path !== undefined) await between?.(page.records);
      }
      return { records, paths };
    },
    ids: (records) => records.map((record) => String(record.id)),
  };
}

/** The list path of `plural` with `parameters`: `/api/v1/{plural}`, or with `/{limit}` or `/{skip}/{limit}`. */
export function listPath(plural: string, parameters: Readonly<Record<string, string>>, page: readonly number[] = []): string {
  return `/api/v1/${plural}${page.map((n) => `/${n}`).join('')}${queryOf(parameters)}`;
}

/** The `after` cursor of a next link, as the service wrote it. */
export function cursorOf(link: string | undefined): string {
  const after = /[?&]after=([^&]*)/u.exec(link ?? '')?.[1];
  if (after === undefined) throw new Error(`no cursor in the next link ${String(link)}`);
  return decodeURIComponent(after);
}
