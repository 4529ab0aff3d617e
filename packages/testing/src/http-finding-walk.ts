import { describe, expect, it } from 'vitest';
import { type ContractCall, type ContractResource } from './http-contract-data.js';
import { findingTools, listPath, searchToken, type Json } from './http-finding-tools.js';

/**
 * "Following next visits every matching record exactly once, even while records are
 * created or deleted during the walk": between each two pages, the record the cursor
 * stands on goes, a record not reached yet goes, and a new one comes.
 */
export function describeWalksWhileRecordsChange(call: ContractCall, resources: readonly ContractResource[]): void {
  describe.each(resources)('walking /$plural while records come and go', (resource) => {
    const { plural, field } = resource;
    const { create, remove, list, walk, ids } = findingTools(call, resource);

    it.each([undefined, field, `-${field}`, 'createdAt', '-createdAt', 'updatedAt', '-updatedAt'])('sort %s', async (sort) => {
      const token = searchToken();
      const originals: Json[] = [];
      for (const letter of 'hcfajdgbei') originals.push(await create(`${letter} ${token}`));
      const parameters = sort === undefined ? { q: token } : { q: token, sort };
      const seen = new Set<string>();
      const goneUnseen = new Set<string>();
      let made = 0;
      const { records } = await walk(listPath(plural, parameters, [3]), async (page) => {
        for (const id of ids(page)) seen.add(id);
        await remove(ids(page).at(-1) ?? '');
        const unseen = ids(originals).find((id) => !seen.has(id) && !goneUnseen.has(id));
        if (unseen !== undefined) {
          await remove(unseen);
          goneUnseen.add(unseen);
        }
        made += 1;
        await create(`${'adj'.charAt(made % 3)}${made} ${token}`);
      });
      const visited = ids(records);
      expect(visited.length - new Set(visited).size, 'records visited twice').toBe(0);
      expect(visited.filter((id) => goneUnseen.has(id))).toEqual([]);
      const stayed = ids(originals).filter((id) => !goneUnseen.has(id));
      expect(stayed.filter((id) => !visited.includes(id)), 'records never visited').toEqual([]);
      // In the order a list gives the records that are still there.
      const now = ids((await list(listPath(plural, parameters))).records);
      const survivors = (order: readonly string[]) => order.filter((id) => stayed.includes(id) && now.includes(id));
      expect(survivors(visited)).toEqual(survivors(now));
    });
  });
}
