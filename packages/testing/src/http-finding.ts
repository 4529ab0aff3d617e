import { describe, expect, it } from 'vitest';
import { nextLinkOf, type ContractCall, type ContractResource, type ServiceUnderTest } from './http-contract-data.js';
import { findingTools, listPath, queryOf, searchToken, tick, type Json } from './http-finding-tools.js';

/** The contract's revision 4, "Finding records": `q`, `sort`, `count` and the `after` cursor of the list paths. */
export function describeFindingRecords(service: () => ServiceUnderTest, call: ContractCall, resources: readonly ContractResource[]): void {
  describe.each(resources)('finding /$plural', (resource) => {
    const { plural, field } = resource;
    const { create, update, list, walk, ids } = findingTools(call, resource);
    const texts = (records: readonly Json[]) => records.map((record) => record[field]);

    it('finds the records whose text contains q, both folded: case, accents and runs of spaces', async () => {
      const token = searchToken();
      const electric = await create(`${token} Manutenção   Elétrica`);
      const building = await create(`${token} MANUTENCAO predial`);
      const finance = await create(`${token} Financeiro`);
      const found = async (q: string) => ids((await list(listPath(plural, { q }))).records);
      expect(await found(`${token} manutencao`)).toEqual(ids([electric, building]));
      expect(await found(`  ${token.toUpperCase()}   MANUTENÇÃO   ELÉTRICA `)).toEqual(ids([electric]));
      expect(await found(`ão elé`)).toEqual(expect.arrayContaining(ids([electric])));
      expect(await found(`${token} financeiro`)).toEqual(ids([finance]));
      expect(await found(token)).toEqual(ids([electric, building, finance]));
      expect(await found(`${token} nada disso`)).toEqual([]);
    });

    it('case folds q and the texts fully, and takes compatibility forms apart: ß as ss, a final sigma as sigma, ﬁ as fi, º as o', async () => {
      const token = searchToken();
      const street = await create(`${token} Straße`);
      const capitals = await create(`${token} STRASSE`);
      const greek = await create(`${token} ΟΔΟΣ`);
      const ligature = await create(`${token} \uFB01nance`);
      const ordinal = await create(`${token} Nº 5`);
      const found = async (q: string) => ids((await list(listPath(plural, { q: `${token} ${q}` }))).records);
      for (const q of ['strasse', 'STRASSE', 'straße']) expect(await found(q), q).toEqual(ids([street, capitals]));
      for (const q of ['ΟΔΟΣ', 'οδοσ', 'οδος']) expect(await found(q), q).toEqual(ids([greek]));
      expect(ids((await list(listPath(plural, { q: 'Σ' }))).records)).toEqual(expect.arrayContaining(ids([greek])));
      expect(await found('finance')).toEqual(ids([ligature]));
      expect(await found('no 5')).toEqual(ids([ordinal]));
    });

    it('sorts compatibility forms beside their letters: Nº 5 before Nova, ª beside a', async () => {
      const token = searchToken();
      const made = new Map<string, Json>();
      for (const name of ['Nz', 'Nova Sede', 'Nº 5', 'b', 'ª primeira']) made.set(name, await create(`${token} ${name}`));
      const expected = ['ª primeira', 'b', 'Nº 5', 'Nova Sede', 'Nz'].map((name) => String(made.get(name)?.id));
      expect(ids((await list(listPath(plural, { q: token, sort: field }))).records)).toEqual(expected);
    });

    it('reads q as percent-encoded UTF-8, with + as a space, whatever characters it holds', async () => {
      const token = searchToken();
      const odd = await create(`${token} P&D + 50% #1 / ação?`);
      expect(ids((await list(listPath(plural, { q: `${token} p&d + 50% #1 / acao?` }))).records)).toEqual(ids([odd]));
      expect(ids((await list(`/api/v1/${plural}?q=${token}+p%26d`)).records)).toEqual(ids([odd]));
    });

    it('treats an empty or blank q as no search, and ignores parameters it does not know', async () => {
      const plain = ids((await list(`/api/v1/${plural}`)).records);
      for (const query of ['?q=', '?q=%20%20', '?Q=nada&search=nada&sorting=-value&foo[bar]=1']) {
        expect(ids((await list(`/api/v1/${plural}${query}`)).records), query).toEqual(plain);
      }
    });

    it(`sorts by ${field} in folded order, accents and case aside, ties by id ascending in both directions`, async () => {
      const token = searchToken();
      const names = ['Zeca', 'Álvaro', 'Cecília', 'alvaro', 'ÉRICA', 'Ana', 'Çarol', 'eduardo', 'Beatriz'];
      const made = new Map<string, Json>();
      for (const name of names) made.set(name, await create(`${name} ${token}`));
      const idsOf = (order: readonly string[]) => order.map((name) => String(made.get(name)?.id));
      // Álvaro and alvaro fold alike: the one made first (the smaller id) comes first, also descending.
      const ascending = idsOf(['Álvaro', 'alvaro', 'Ana', 'Beatriz', 'Çarol', 'Cecília', 'eduardo', 'ÉRICA', 'Zeca']);
      const descending = idsOf(['Zeca', 'ÉRICA', 'eduardo', 'Cecília', 'Çarol', 'Beatriz', 'Ana', 'Álvaro', 'alvaro']);
      for (const [sort, expected] of [[field, ascending], [`-${field}`, descending]] as const) {
        expect(ids((await list(listPath(plural, { q: token, sort }))).records), sort).toEqual(expected);
        // One record a page puts every tie on a page boundary.
        for (const limit of [1, 2, 4]) expect(ids((await walk(listPath(plural, { q: token, sort }, [limit]))).records), `${sort} by ${limit}`).toEqual(expected);
      }
    });

    it('sorts by createdAt and updatedAt, each either way, and by createdAt when no sort is given', async () => {
      const token = searchToken();
      const first = await create(`um ${token}`);
      await tick();
      const second = await create(`dois ${token}`);
      await tick();
      const third = await create(`três ${token}`);
      await tick();
      await update(String(second.id), `dois de novo ${token}`);
      await tick();
      await update(String(first.id), `um de novo ${token}`);
      const orders: Record<string, readonly Json[]> = {
        createdAt: [first, second, third],
        '-createdAt': [third, second, first],
        updatedAt: [third, second, first],
        '-updatedAt': [first, second, third],
      };
      for (const [sort, expected] of Object.entries(orders)) {
        expect(ids((await list(listPath(plural, { q: token, sort }))).records), sort).toEqual(ids(expected));
        expect(ids((await walk(listPath(plural, { q: token, sort }, [1]))).records), `${sort} by 1`).toEqual(ids(expected));
      }
      expect(ids((await list(listPath(plural, { q: token }))).records)).toEqual(ids(orders.createdAt ?? []));
    });

    it('answers X-Total-Count with count=true: the records matching q, all of them without q, on every page', async () => {
      const token = searchToken();
      for (const name of ['a', 'b', 'c']) await create(`${name} ${token}`);
      const counted = await list(listPath(plural, { q: token, count: 'true' }, [1]));
      expect({ total: counted.answer.headers['x-total-count'], shown: counted.records.length }).toEqual({ total: '3', shown: 1 });
      const pages = await walk(listPath(plural, { q: token, sort: `-${field}`, count: 'true' }, [2]));
      expect(pages.paths).toHaveLength(2);
      for (const path of pages.paths) expect((await list(path)).answer.headers['x-total-count'], path).toBe('3');
      expect((await list(listPath(plural, { q: `${token} nada`, count: 'true' }))).answer.headers['x-total-count']).toBe('0');
      expect((await list(listPath(plural, { q: token }))).answer.headers['x-total-count']).toBeUndefined();
      const everything = (await walk(listPath(plural, {}, [service().maxPageSize]))).records.length;
      const all = await list(listPath(plural, { count: 'true' }, [1]));
      expect(all.answer.headers['x-total-count']).toBe(String(everything));
      const head = await call({ method: 'HEAD', path: listPath(plural, { q: token, count: 'true' }) });
      expect({ status: head.status, total: head.headers['x-total-count'], body: head.text }).toEqual({ status: 200, total: '3', body: '' });
    });

    it('links the next page of a search or sort on the same path form, limit kept, skip dropped, parameters kept', async () => {
      const token = searchToken();
      const made: Json[] = [];
      for (const name of ['a', 'b', 'c', 'd', 'e']) made.push(await create(`${name} & ${token}`));
      const q = `& ${token.toUpperCase()}`;
      const parameters = { q, sort: field, count: 'true' };
      const byLimit = await list(listPath(plural, { ...parameters, unknown: 'x' }, [2]));
      const link = nextLinkOf(byLimit.answer) ?? '';
      const start = `/api/v1/${plural}/2${queryOf(parameters)}&after=`;
      expect({ start: link.slice(0, start.length), cursor: link.slice(start.length) }).toEqual({ start, cursor: expect.stringMatching(/^[A-Za-z0-9_-]+$/u) as unknown });
      expect(ids((await list(link)).records)).toEqual(ids(made.slice(2, 4)));
      // With a skip in the path, the cursor comes first and the skip after it; the next page has none.
      const skipped = await list(listPath(plural, parameters, [1, 2]));
      expect(ids(skipped.records)).toEqual(ids(made.slice(1, 3)));
      const afterSkip = nextLinkOf(skipped.answer) ?? '';
      expect(afterSkip.startsWith(`/api/v1/${plural}/2?`)).toBe(true);
      expect(ids((await list(afterSkip)).records)).toEqual(ids(made.slice(3, 5)));
      const skipsPastCursor = await list(afterSkip.replace(`/${plural}/2?`, `/${plural}/1/1?`));
      expect(ids(skipsPastCursor.records)).toEqual(ids(made.slice(4, 5)));
      expect(nextLinkOf(skipsPastCursor.answer)).toBeUndefined();
    });

    it('links the next page of the plain path form with its parameters, over a page of the largest size', async () => {
      const token = searchToken();
      const size = service().maxPageSize;
      for (let n = 0; n <= size; n += 1) await create(`${String(n).padStart(3, '0')} ${token}`);
      const first = await list(listPath(plural, { q: token }));
      expect(first.records).toHaveLength(size);
      const next = nextLinkOf(first.answer) ?? '';
      expect(next).toMatch(new RegExp(`^/api/v1/${plural}\\?q=${token}&after=[A-Za-z0-9_-]+$`, 'u'));
      expect(texts((await list(next)).records)).toEqual([`${String(size).padStart(3, '0')} ${token}`]);
    });

    it('keeps the skip links of a plain list, and count on them when asked', async () => {
      await create(`${searchToken()} simples`);
      await create(`${searchToken()} simples`);
      const plain = await list(`/api/v1/${plural}/1`);
      expect(nextLinkOf(plain.answer)).toBe(`/api/v1/${plural}/1/1`);
      const counted = await list(`/api/v1/${plural}/1?count=true`);
      expect(nextLinkOf(counted.answer)).toBe(`/api/v1/${plural}/1/1?count=true`);
      expect((await list(`/api/v1/${plural}/1/1?count=true`)).answer.headers['x-total-count']).toBe(counted.answer.headers['x-total-count']);
    });
  });
}
