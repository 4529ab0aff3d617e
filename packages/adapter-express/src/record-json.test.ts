import { assembleRecord, checkText, costCenter, workSchedule, type RecordBase } from '@workplan/core';
import { send } from '@workplan/testing';
import { describe, expect, it } from 'vitest';
import { successJson } from './envelope.js';
import { KEPT_PAGES, recordJsonOf } from './record-json.js';
import { startMemoryApp } from './testing/memory-app.js';

// Texts the core accepts (each is checked below), chosen where JSON writers differ:
// quotes and backslashes, C1 controls and the line separators JSON.stringify leaves raw,
// characters outside the BMP, combining marks, and HTML-significant characters.
const TRICKY_TEXTS = [
  '12x36',
  'aspas "duplas" e \\barra\\ invertida',
  'ção, ÁÉÍÓÚ, ñ, ü',
  'C1 \u0080 \u0085 \u009f',
  'separadores \u2028 e \u2029 no meio',
  'emoji 😀 👩‍👩‍👧 𝄞',
  'q\u0301 combinado',
  '</script><!-- & \' /',
  'zero\u200bwidth\ufeffbom',
  'nbsp\u00a0no\u00a0meio',
  '{"json":[1,2]}',
  'x'.repeat(200),
];

// Times where a hand-made ISO writer could go wrong: the epoch, day and year edges, leap
// days, before 1970, after 9999, the largest dates, and an invalid one (written `null`).
const TRICKY_TIMES = [
  0, 1, 999, 1000, 59_999, 86_399_999, 86_400_000, -1, -86_400_001,
  Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(2000, 0, 1), Date.UTC(1999, 11, 31, 23, 59, 59, 999),
  Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10_000, 0, 1), Date.UTC(-1, 0, 1), Date.UTC(0, 0, 1) - 1,
  8.64e15, -8.64e15, Number.NaN, Date.now(),
];

/** A deterministic stream of numbers in [0, 1), so a failure can be replayed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

// A writer keeps what it wrote by id and revision, and a record's text never changes
// within one revision; so records with other texts or times get ids of their own.
let made = 0;

function recordOf(text: string, createdAt: number, updatedAt: number, id = `0193c0de-7a1b-7c2d-8e3f-${String(made++).padStart(12, '0')}`): RecordBase {
  return assembleRecord(workSchedule, { id, text, createdAt: new Date(createdAt), updatedAt: new Date(updatedAt) });
}

describe('recordJsonOf', () => {
  it('gives a page as the JSON of its records, the same each time it is served again', () => {
    const json = recordJsonOf('value');
    const page = [recordOf('ção 😀', 0, 1), recordOf('6x1', 2, 3)];
    const text = json.many(page);
    expect(text).toBe(JSON.stringify(page));
    expect(json.many(page)).toBe(text);
  });

  it('accepts the tricky texts in the core, so they are texts a record can hold', () => {
    for (const text of TRICKY_TEXTS) expect(checkText(text), JSON.stringify(text)).toEqual({ ok: true, text });
  });

  it('writes each record in the envelope byte for byte as JSON.stringify does', () => {
    const json = recordJsonOf('value');
    for (const text of TRICKY_TEXTS) {
      for (const time of TRICKY_TIMES) {
        const record = recordOf(text, time, time);
        expect(successJson(json.one(record))).toBe(JSON.stringify({ success: true, data: record }));
      }
    }
  });

  it('writes a list, empty or of every tricky record, as JSON.stringify does', () => {
    const json = recordJsonOf('value');
    const records = TRICKY_TEXTS.flatMap((text, index) => TRICKY_TIMES.map((time) => recordOf(text, time, time + index)));
    expect(successJson(json.many(records))).toBe(JSON.stringify({ success: true, data: records }));
    expect(successJson(json.many([]))).toBe(JSON.stringify({ success: true, data: [] }));
  });

  it('writes the two dates of 20,000 records at random times from 1900 to 10100 as JSON.stringify does', () => {
    const random = seeded(16);
    const json = recordJsonOf('value');
    const low = Date.UTC(1900, 0, 1);
    const high = Date.UTC(10_100, 0, 1);
    for (let n = 0; n < 20_000; n += 1) {
      const record = recordOf('6x1', Math.floor(low + random() * (high - low)), Math.floor(low + random() * (high - low)));
      const written = json.one(record);
      if (written !== JSON.stringify(record)) expect(written).toBe(JSON.stringify(record));
    }
  });

  it('writes random texts of any code point, lone surrogates included, as JSON.stringify does', () => {
    const random = seeded(11);
    const json = recordJsonOf('title');
    for (let n = 0; n < 2_000; n += 1) {
      const units = Array.from({ length: 1 + Math.floor(random() * 12) }, () => Math.floor(random() * 0x1_0000));
      const record = assembleRecord(costCenter, { id: `id-${String(n)}`, text: String.fromCharCode(...units), createdAt: new Date(n), updatedAt: new Date(n) });
      expect(json.one(record)).toBe(JSON.stringify(record));
    }
  });

  it('serves a record again as written while it comes at the same updatedAt, and writes it anew at another', () => {
    const json = recordJsonOf('value');
    const id = '0193c0de-7a1b-7c2d-8e3f-aaaaaaaaaaaa';
    const first = json.one(recordOf('6x1', 1000, 2000, id));
    // Not a state a record can be in (same revision, other text): it shows what is served.
    expect(json.one(recordOf('12x36', 1000, 2000, id))).toBe(first);
    expect(json.many([recordOf('12x36', 1000, 2000, id)])).toBe(`[${first}]`);
    const updated = recordOf('12x36', 1000, 2001, id);
    expect(json.one(updated)).toBe(JSON.stringify(updated));
    // Another resource's writer keeps its own.
    expect(recordJsonOf('value').one(recordOf('12x36', 1000, 2000, id))).toContain('"12x36"');
  });

  it('keeps at most the given number of records, dropping the one written first', () => {
    const json = recordJsonOf('value', 4);
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((letter) => `0193c0de-7a1b-7c2d-8e3f-${letter.repeat(12)}`);
    const servedAs = (id: string | undefined): string => json.one(recordOf('other', 0, 0, id));
    for (const id of [a, b, c, d]) json.one(recordOf('6x1', 0, 0, id));
    expect(servedAs(a)).toContain('"6x1"'); // four written: all kept
    json.one(recordOf('6x1', 0, 0, e));
    expect(servedAs(a)).toContain('"other"'); // a fifth: the first written is forgotten
    expect(servedAs(c)).toContain('"6x1"');
  });

  it('serves a list again while it has the same records at the same updatedAt, in the same order', () => {
    // Keeping one record's JSON at most, so what is served again is the list's.
    const json = recordJsonOf('value', 1);
    const ids = ['a', 'b', 'c'].map((letter) => `0193c0de-7a1b-7c2d-8e3f-${letter.repeat(12)}`);
    const listOf = (texts: readonly string[], times: readonly number[], order = ids) =>
      order.map((id, i) => recordOf(texts[i] ?? '', 0, times[i] ?? 0, id));
    const first = json.many(listOf(['6x1', '5x2', '12x36'], [1, 1, 1]));
    expect(first).toBe(JSON.stringify(listOf(['6x1', '5x2', '12x36'], [1, 1, 1])));
    // Not a state records can be in (same revisions, other texts): it shows what is served.
    expect(json.many(listOf(['x', 'y', 'z'], [1, 1, 1]))).toBe(first);
    // One record at another revision: written anew.
    expect(json.many(listOf(['6x1', '4x3', '12x36'], [1, 2, 1]))).toContain('"4x3"');
    // The same records in another order, or fewer of them: written anew.
    const reordered = listOf(['6x1', '5x2', '12x36'], [1, 2, 1], [ids[0] ?? '', ids[2] ?? '', ids[1] ?? '']);
    expect(json.many(reordered)).toBe(JSON.stringify(reordered));
    expect(json.many(listOf(['6x1', '4x3'], [1, 2]))).toBe(JSON.stringify(listOf(['6x1', '4x3'], [1, 2])));
    expect(json.many([])).toBe('[]');
  });

  // Records a, b, c; a page lists some of them, in order, with these texts.
  const pageIds = ['a', 'b', 'c'].map((letter) => `0193c0de-7a1b-7c2d-8e3f-${letter.repeat(12)}`);
  const pageOf = (texts: readonly string[], order: readonly number[]) => order.map((n) => recordOf(texts[n] ?? '', 0, 0, pageIds[n]));

  it('tells apart pages of the same length that start on the same record, of one list or of several', () => {
    const json = recordJsonOf('value', 1);
    const pages = [pageOf(['a', 'b', 'c'], [0, 1]), pageOf(['a', 'b', 'c'], [0, 2])];
    for (const list of ['', 'value', '-createdAt q']) {
      for (const page of [...pages, ...pages]) expect(json.many(page, list), list).toBe(JSON.stringify(page));
    }
  });

  it('keeps a page of each list apart, so pages of two lists that start alike do not push each other out', () => {
    const json = recordJsonOf('value', 1);
    const byCreation = json.many(pageOf(['a', 'b', 'c'], [0, 1]));
    const bySearch = json.many(pageOf(['a', 'b', 'c'], [0, 2]), 'q');
    // Not a state records can be in (same revisions, other texts): it shows what is served.
    expect(json.many(pageOf(['x', 'y', 'z'], [0, 1]))).toBe(byCreation);
    expect(json.many(pageOf(['x', 'y', 'z'], [0, 2]), 'q')).toBe(bySearch);
  });

  it(`keeps at most ${KEPT_PAGES} lists, forgetting the one written first`, () => {
    const json = recordJsonOf('value', 1);
    const listAt = (n: number, text: string) => [recordOf(text, 0, 0, `0193c0de-7a1b-7c2d-8e3f-${String(n).padStart(12, '0')}`)];
    for (let n = 0; n <= KEPT_PAGES; n += 1) json.many(listAt(n, 'first'));
    // Two other records, so the one record's JSON the writer keeps is none of these.
    json.one(recordOf('6x1', 0, 0));
    json.one(recordOf('5x2', 0, 0));
    expect(json.many(listAt(KEPT_PAGES, 'other'))).toContain('"first"');
    expect(json.many(listAt(0, 'other'))).toContain('"other"');
  });

  it('leaves a record of another shape to JSON.stringify, so its bytes stay the same', () => {
    const json = recordJsonOf('value');
    const odd = { id: 'x', title: 'not this field', createdAt: new Date(0), updatedAt: new Date(0) };
    expect(json.one(odd)).toBe(JSON.stringify(odd));
  });
});

// What keeping the JSON rests on: each state of a record has an updatedAt of its own. If an
// update could leave updatedAt as it was (a clock standing still, a storage rounding it),
// the find and the list after it would serve the kept JSON, with the old text.
describe('the JSON a writer keeps, through the app', () => {
  it('shows each update in the next find and the next list, also while the clock stands still', async () => {
    const key = 'kept-json-test-key-0123';
    const now = new Date('2026-11-24T12:00:00.000Z');
    const app = await startMemoryApp({ key, workplan: { clock: { now: () => now } } });
    try {
      const headers = { key, 'content-type': 'application/json' };
      const valuesIn = async (path: string) => {
        const { data } = (await send(app.baseUrl, { path, headers: { key } })).json as { data: { value: string } | { value: string }[] };
        return Array.isArray(data) ? data.map((record) => record.value) : [data.value];
      };
      const created = await send(app.baseUrl, { method: 'POST', path: '/api/v1/scale', headers, body: '{"value":"6x1"}' });
      const path = String(created.headers.location);
      expect([await valuesIn(path), await valuesIn('/api/v1/scales')]).toEqual([['6x1'], ['6x1']]);
      for (const value of ['5x2', '12x36', '4x3']) {
        const updated = await send(app.baseUrl, { method: 'PUT', path, headers, body: JSON.stringify({ value }) });
        expect(updated.json).toMatchObject({ data: { value } });
        expect([await valuesIn(path), await valuesIn('/api/v1/scales')]).toEqual([[value], [value]]);
      }
    } finally {
      await app.close();
    }
  });
});
