import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { dataOf, nextLinkOf, type ContractCall } from './http-contract-data.js';

export type Json = Record<string, unknown>;

// Written out from the contract, as the resources' messages are.
export const CHANGES_MESSAGE = 'Não foi possível retornar as alterações.';

/** The name the contract gives a key configured without one: its fingerprint, the first 8 hex characters of its SHA-256. */
export function nameOfUnnamedKey(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** What a test of history and changes does over HTTP. */
export interface ChangesTools {
  /** The `after` of the last change committed so far: walks the feed to its end. */
  readonly end: () => Promise<string>;
  /** Every change committed after `after`, read page by page. */
  readonly since: (after: string) => Promise<Json[]>;
  /** The history of a record, every page of it, after checking each answer. */
  readonly history: (singular: string, id: string) => Promise<Json[]>;
}

/** The most pages a walk of the feed or of a history follows before it counts as a loop. */
const MAX_PAGES = 1000;

export function changesTools(call: ContractCall): ChangesTools {
  // Where the last walk ended: the next starts there, so a walk reads only what is new.
  let known = '0';
  const since = async (after: string): Promise<Json[]> => {
    const changes: Json[] = [];
    let path = `/api/v1/changes?after=${after}&limit=1000`;
    for (let pages = 0; pages < MAX_PAGES; pages += 1) {
      const answer = await call({ path });
      const page = dataOf(answer, 200) as Json[];
      changes.push(...page);
      const next = nextLinkOf(answer);
      expect(next).toBeDefined();
      if (page.length === 0) return changes;
      path = next ?? '';
    }
    throw new Error(`the feed did not end within ${MAX_PAGES} pages`);
  };
  return {
    since,
    end: async () => {
      const last = (await since(known)).at(-1);
      if (last !== undefined) known = String(last.id);
      return known;
    },
    history: async (singular, id) => {
      const changes: Json[] = [];
      for (let path: string | undefined = `/api/v1/${singular}/${encodeURIComponent(id)}/history`, pages = 0; path !== undefined; pages += 1) {
        if (pages === MAX_PAGES) throw new Error(`the history did not end within ${MAX_PAGES} pages`);
        const answer = await call({ path });
        changes.push(...(dataOf(answer, 200) as Json[]));
        path = nextLinkOf(answer);
      }
      return changes;
    },
  };
}
