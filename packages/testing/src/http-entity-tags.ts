import { describe, expect, it } from 'vitest';
import { type HttpAnswer } from './http-client.js';
import { dataOf, expectCommonHeaders, expectProblem, uniqueText, type ContractCall, type ContractResource } from './http-contract-data.js';

type Json = Record<string, unknown>;

// RFC 9110's strong entity-tag: a quoted string of visible characters other than the quote.
const STRONG_TAG = /^"[\x21\x23-\x7e]*"$/u;
const MISSING_ID = '00000000-0000-7000-8000-000000000000';

/** The contract's entity tags (revision 3): ETag, If-None-Match on find, If-Match on update and delete. */
export function describeEntityTags(call: ContractCall, resources: readonly ContractResource[]): void {
  describe.each(resources)('entity tags of /$singular', ({ singular, plural, field, messages }) => {
    const one = (id: string) => `/api/v1/${singular}/${id}`;
    const create = async (): Promise<{ record: Json; tag: string }> => {
      const answer = await call({ method: 'POST', path: `/api/v1/${singular}`, json: { [field]: uniqueText() } });
      return { record: dataOf(answer, 201) as Json, tag: tagOf(answer) };
    };
    const update = (id: string, ifMatch?: string, text = uniqueText()) =>
      call({ method: 'PUT', path: one(id), json: { [field]: text }, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });
    const remove = (id: string, ifMatch: string) => call({ method: 'DELETE', path: one(id), headers: { 'if-match': ifMatch } });
    const find = (id: string, headers: Record<string, string> = {}, method = 'GET') => call({ method, path: one(id), headers });

    it('gives create, find and update a strong ETag that changes with each update and with nothing else', async () => {
      const { record, tag } = await create();
      const id = String(record.id);
      expect(tag).toMatch(STRONG_TAG);
      expect(tagOf(await find(id))).toBe(tag);
      expect(tagOf(await find(id, {}, 'HEAD'))).toBe(tag);
      const updated = await update(id);
      const second = tagOf(updated);
      expect(second).not.toBe(tag);
      expect(tagOf(await find(id))).toBe(second);
      const again = tagOf(await update(id, undefined, String((dataOf(updated, 200) as Json)[field])));
      expect(again).not.toBe(second);
      expect(tagOf(await find(id))).toBe(again);
      const listed = await call({ path: `/api/v1/${plural}` });
      expect(listed.headers.etag).toBeUndefined();
    });

    it('answers 304 with the ETag and no body to If-None-Match naming the current tag, weakly or among others, or *', async () => {
      const { record, tag } = await create();
      const id = String(record.id);
      for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
        for (const method of ['GET', 'HEAD']) {
          const answer = await find(id, { 'if-none-match': ifNoneMatch }, method);
          expect({ status: answer.status, text: answer.text, etag: answer.headers.etag }).toEqual({ status: 304, text: '', etag: tag });
          expect(answer.headers['x-request-id']).toBeDefined();
        }
      }
      const stale = await find(id, { 'if-none-match': '"other"' });
      expect(dataOf(stale, 200)).toEqual(record);
      expect(tagOf(stale)).toBe(tag);
      expectProblem(await find(MISSING_ID, { 'if-none-match': '*' }), 404, 'NOT_FOUND', messages.find);
    });

    it('updates and deletes with If-Match naming the current tag, among several, or *', async () => {
      const { record, tag } = await create();
      const id = String(record.id);
      const first = await update(id, tag);
      expect(dataOf(first, 200)).toMatchObject({ id });
      const next = await update(id, `"stale", ${tagOf(first)}`);
      expect(dataOf(next, 200)).toMatchObject({ id });
      const any = await update(id, '*');
      expect(dataOf(any, 200)).toMatchObject({ id });
      expect(dataOf(await remove(id, tagOf(any)), 200)).toBeUndefined();
      expectProblem(await find(id), 404, 'NOT_FOUND', messages.find);
      const other = await create();
      expect((await remove(String(other.record.id), '*')).status).toBe(200);
    });

    it('answers If-Match: * on a missing record 404, existence being checked before the condition', async () => {
      expectProblem(await update(MISSING_ID, '*'), 404, 'NOT_FOUND', messages.update);
      expectProblem(await remove(MISSING_ID, '*'), 404, 'NOT_FOUND', messages.delete);
    });

    it.each([
      ['an old tag', (_tag: string, old: string) => old],
      ['the current tag made weak', (tag: string) => `W/${tag}`],
      ['an unquoted tag', (tag: string) => tag.slice(1, -1)],
      ['an empty list', () => ''],
    ])('refuses If-Match with %s: 412 PRECONDITION_FAILED with the operation message, nothing changed', async (_label, ifMatchOf) => {
      const { record, tag: old } = await create();
      const id = String(record.id);
      const current = await update(id);
      const tag = tagOf(current);
      const kept = dataOf(current, 200);
      const ifMatch = ifMatchOf(tag, old);
      expectProblem(await update(id, ifMatch), 412, 'PRECONDITION_FAILED', messages.update);
      expectProblem(await remove(id, ifMatch), 412, 'PRECONDITION_FAILED', messages.delete);
      const after = await find(id);
      expect(dataOf(after, 200)).toEqual(kept);
      expect(tagOf(after)).toBe(tag);
    });

    it('checks fields, then existence (404), then the precondition (412), then uniqueness (409)', async () => {
      const { record, tag } = await create();
      const id = String(record.id);
      const taken = await create();
      await update(id);
      const stale = { 'if-match': tag };
      const put = (path: string, json: unknown) => call({ method: 'PUT', path, json, headers: stale });
      expectProblem(await put(one(id), { [field]: ' ' }), 400, 'VALIDATION_FAILED', messages.update);
      expectProblem(await put(one(MISSING_ID), { [field]: uniqueText() }), 404, 'NOT_FOUND', messages.update);
      expectProblem(await put(one(id), { [field]: taken.record[field] }), 412, 'PRECONDITION_FAILED', messages.update);
      expectProblem(await update(id, tagOf(await find(id)), String(taken.record[field])), 409, 'CONFLICT', messages.update);
    });

    it('lets exactly one of many concurrent updates sent with one If-Match win, holding its value', async () => {
      const { record, tag } = await create();
      const id = String(record.id);
      const texts = Array.from({ length: 50 }, () => uniqueText('corrida'));
      const answers = await Promise.all(texts.map((text) => update(id, tag, text)));
      const winners = answers.filter((answer) => answer.status === 200);
      expect(winners).toHaveLength(1);
      for (const answer of answers.filter((a) => a.status !== 200)) expectProblem(answer, 412, 'PRECONDITION_FAILED', messages.update);
      const [winner] = winners as [HttpAnswer];
      expect(dataOf(await find(id), 200)).toEqual(dataOf(winner, 200));
    });
  });
}

/** The ETag of an answer, checked to be there. */
function tagOf(answer: HttpAnswer): string {
  expectCommonHeaders(answer);
  const tag = answer.headers.etag;
  if (typeof tag !== 'string') throw new Error(`answer ${answer.status} carries no ETag`);
  return tag;
}
