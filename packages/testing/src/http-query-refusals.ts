import { describe, expect, it } from 'vitest';
import { expectProblem, nextLinkOf, type ContractCall, type ContractResource } from './http-contract-data.js';
import { cursorOf, findingTools, listPath, searchToken } from './http-finding-tools.js';

/** Base64url of some JSON: the shape of a cursor, holding something else. */
const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Query strings, written out byte for byte, that no list takes. */
function badQueries(otherField: string): readonly (readonly [string, string])[] {
  return [
    ['a q of 201 characters', `q=${'x'.repeat(201)}`],
    ['a q of 201 code points outside the BMP', `q=${encodeURIComponent('😀'.repeat(201))}`],
    ['a q that is not UTF-8', 'q=%FF'],
    ['a q holding a lone surrogate', 'q=%ED%A0%80'],
    ['a q with malformed percent-encoding', 'q=%E0%A4%A'],
    ['sort=foo', 'sort=foo'],
    ['an empty sort', 'sort='],
    ['a sort of a lone -', 'sort=-'],
    ['a sort with two -', 'sort=--createdAt'],
    ['a sort with a +', 'sort=%2BcreatedAt'],
    ['a sort in another case', 'sort=CreatedAt'],
    ['a sort by id', 'sort=id'],
    ['two sorts in one', 'sort=createdAt,updatedAt'],
    ["a sort by the other resource's text", `sort=${otherField}`],
    ['count=yes', 'count=yes'],
    ['count=1', 'count=1'],
    ['count=TRUE', 'count=TRUE'],
    ['an empty count', 'count='],
    ['a count without a value', 'count'],
    ['count=true with a space after', 'count=true%20'],
    ['after=garbage', 'after=garbage!'],
    ['an empty after', 'after='],
    ['an after that is base64url but not JSON', 'after=xyz'],
    ['an after with base64 padding', `after=${encoded(['x'])}=`],
    ['an after of a JSON object', `after=${encoded({})}`],
    ['an after of a JSON array that is no cursor', `after=${encoded([1, 2, 3])}`],
    ['q twice', 'q=a&q=a'],
    ['sort twice, the same', 'sort=createdAt&sort=createdAt'],
    ['count twice', 'count=true&count=true'],
    ['count twice, differing', 'count=true&count=false'],
    ['count=false', 'count=false'],
    ['after twice', 'after=xyz&after=xyz'],
    ['q as an object', 'q[a]=1'],
    ['q as an array', 'q[]=a'],
    ['sort as an array', 'sort[]=createdAt'],
    ['count as an object', 'count[x]=true'],
    ['q beside a good sort', 'sort=createdAt&q=a&q=b'],
  ];
}

/** Every bad value of q, sort, count and after is 400 INVALID_QUERY, with the list's message, and changes nothing. */
export function describeQueryRefusals(call: ContractCall, resources: readonly ContractResource[]): void {
  describe.each(resources)('refusing bad queries on /$plural', (resource) => {
    const { plural, field, messages } = resource;
    const other = resources.find((candidate) => candidate !== resource) ?? resource;
    const { create, list, ids } = findingTools(call, resource);
    const forms = ['', '/2', '/0/2'];

    it.each(badQueries(other.field))('refuses %s with 400 INVALID_QUERY on every list path form', async (_label, query) => {
      for (const form of forms) {
        expectProblem(await call({ path: `/api/v1/${plural}${form}?${query}` }), 400, 'INVALID_QUERY', messages.list);
      }
      const head = await call({ method: 'HEAD', path: `/api/v1/${plural}?${query}` });
      expect({ status: head.status, body: head.text }).toEqual({ status: 400, body: '' });
    });

    it('takes q of 200 code points outside the BMP, count=true and every documented sort', async () => {
      for (const query of [`q=${encodeURIComponent('😀'.repeat(200))}`, 'count=true']) {
        expect((await call({ path: `/api/v1/${plural}/2?${query}` })).status, query).toBe(200);
      }
      for (const sort of ['createdAt', '-createdAt', 'updatedAt', '-updatedAt', field, `-${field}`]) {
        expect((await call({ path: `/api/v1/${plural}/2?sort=${sort}` })).status, sort).toBe(200);
      }
    });

    it('refuses a cursor from another list, sort, direction or search, or cut short, and changes nothing', async () => {
      const token = searchToken();
      for (const name of ['a', 'b', 'c']) await create(`${name} ${token}`);
      const otherTools = findingTools(call, other);
      for (const name of ['a', 'b']) await otherTools.create(`${name} ${token}`);
      const cursorFrom = async (path: string) => cursorOf(nextLinkOf((await list(path)).answer));
      const bySort = await cursorFrom(listPath(plural, { q: token, sort: field }, [1]));
      const before = (await list(listPath(plural, { q: token, count: 'true' }))).answer;
      const foreign = [
        ['of the other resource', listPath(plural, { q: token }, [1]), await cursorFrom(listPath(other.plural, { q: token }, [1]))],
        ['of another sort', listPath(plural, { q: token, sort: 'createdAt' }, [1]), bySort],
        ['of the other direction', listPath(plural, { q: token, sort: `-${field}` }, [1]), bySort],
        ['of another search', listPath(plural, { q: `${token} `.slice(1), sort: field }, [1]), bySort],
        ['of a search, without one', listPath(plural, { sort: field }, [1]), bySort],
        ['cut short', listPath(plural, { q: token, sort: field }, [1]), bySort.slice(0, -4)],
      ] as const;
      for (const [label, path, after] of foreign) {
        const answer = await call({ path: `${path}${path.includes('?') ? '&' : '?'}after=${after}` });
        expect({ label, status: answer.status }).toEqual({ label, status: 400 });
        expectProblem(answer, 400, 'INVALID_QUERY', messages.list);
      }
      const after = (await list(listPath(plural, { q: token, count: 'true' }))).answer;
      expect({ data: after.json, total: after.headers['x-total-count'] }).toEqual({ data: before.json, total: before.headers['x-total-count'] });
      expect(ids((await list(`${listPath(plural, { q: token, sort: field }, [1])}&after=${bySort}`)).records)).toHaveLength(1);
    });

    it('checks the key first, then the page, then the query', async () => {
      expectProblem(await call({ path: `/api/v1/${plural}/abc?sort=foo`, key: null }), 401, 'UNAUTHORIZED', messages.list);
      expectProblem(await call({ path: `/api/v1/${plural}/abc?sort=foo` }), 400, 'INVALID_PAGINATION', messages.list);
      expectProblem(await call({ path: `/api/v1/${plural}/0/0?count=yes` }), 400, 'INVALID_PAGINATION', messages.list);
    });
  });
}
