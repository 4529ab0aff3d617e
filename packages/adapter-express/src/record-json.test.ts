import { assembleRecord, checkText, costCenter, workSchedule, type RecordBase } from '@workplan/core';
import { describe, expect, it } from 'vitest';
import { successJson } from './envelope.js';
import { isoTimeOf } from './iso-time.js';
import { recordJsonOf } from './record-json.js';

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

function recordOf(text: string, createdAt: number, updatedAt: number): RecordBase {
  return assembleRecord(workSchedule, { id: '0193c0de-7a1b-7c2d-8e3f-0123456789ab', text, createdAt: new Date(createdAt), updatedAt: new Date(updatedAt) });
}

describe('isoTimeOf', () => {
  it('writes every tricky time as Date.prototype.toJSON does', () => {
    for (const ms of TRICKY_TIMES) expect(isoTimeOf(new Date(ms)), String(ms)).toBe(new Date(ms).toJSON());
  });

  it('writes 200,000 random times from 1900 to 10100, out of order, as Date.prototype.toJSON does', () => {
    const random = seeded(16);
    const low = Date.UTC(1900, 0, 1);
    const high = Date.UTC(10_100, 0, 1);
    for (let n = 0; n < 200_000; n += 1) {
      const ms = Math.floor(low + random() * (high - low));
      const written = isoTimeOf(new Date(ms));
      if (written !== new Date(ms).toJSON()) expect(written, String(ms)).toBe(new Date(ms).toJSON());
    }
  });
});

describe('recordJsonOf', () => {
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

  it('writes random texts of any code point, lone surrogates included, as JSON.stringify does', () => {
    const random = seeded(11);
    const json = recordJsonOf('title');
    for (let n = 0; n < 2_000; n += 1) {
      const units = Array.from({ length: 1 + Math.floor(random() * 12) }, () => Math.floor(random() * 0x1_0000));
      const record = assembleRecord(costCenter, { id: `id-${String(n)}`, text: String.fromCharCode(...units), createdAt: new Date(n), updatedAt: new Date(n) });
      expect(json.one(record)).toBe(JSON.stringify(record));
    }
  });

  it('leaves a record of another shape to JSON.stringify, so its bytes stay the same', () => {
    const json = recordJsonOf('value');
    const odd = { id: 'x', title: 'not this field', createdAt: new Date(0), updatedAt: new Date(0) };
    expect(json.one(odd)).toBe(JSON.stringify(odd));
  });
});
