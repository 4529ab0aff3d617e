import fc from 'fast-check';
import { char } from './hostile-paths.js';

// Request bodies as a hostile client writes them, for the hostile-input properties.

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map(char);
const edgeChar = fc.constantFrom(
  ...['\u0000', '\u001f', '\u007f', '\u0085', '\u00a0', '\ufeff', '\u200b', '\u202e', '\u2028', '\uffff', '\ufffe'],
  ...['e\u0301', '\u1e9b\u0323', '🙂', '👩‍👩‍👧', '\t', '\n', '\r', ' ', '\\', '"', 'İ', 'ß', 'ﬃ', 'Σ'],
);
const brokenText = fc.constantFrom(
  ...['', ' ', 'null', 'true', '0', '"x"', '[]', '{}', '{', '}', '{"value":}', '{"value":"x",}', "{'value':'x'}"],
  ...['{"value":"\\ud800"}', '{"value":"\\udc00x\\ud83d","title":"\\udfff"}', '{"value":"\\u0000"}', '\ufeff{"value":"bom"}'],
  ...['{"value":"x"} trailing', '{"value":"y"}{"value":"z"}', 'NaN', '{"value":NaN}', '{"value":Infinity}', '/*c*/{}'],
  ...['{"__proto__":{"value":"polluted"}}', '{"constructor":{"prototype":{"polluted":true}}}', '{"__proto__":null,"value":"w"}'],
  ...['{"value":{"$gt":""}}', '{"title":{"$ne":null}}', '{"$where":"1","value":"v"}', '{"value":"\\u0041"}'],
);
const deepText = fc.oneof(
  fc.integer({ min: 1, max: 8200 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.integer({ min: 1, max: 3000 }).map((depth) => `{"value":${'{"a":'.repeat(depth)}1${'}'.repeat(depth + 1)}`),
  fc.integer({ min: 1, max: 4200 }).map((depth) => `{"title":${'['.repeat(depth)}"x"${']'.repeat(depth)},"value":"d"}`),
);
/** A document of exactly `size` bytes, valid JSON with a short `value`. */
const paddedText = (size: number) => {
  const head = '{"value":"pad","title":"pad","x":"';
  return `${head}${'a'.repeat(size - head.length - 2)}"}`;
};
const wrapBytes = (bytes: Uint8Array) =>
  Buffer.concat([Buffer.from('{"value":"'), bytes, Buffer.from('","title":"'), bytes, Buffer.from('"}')]);

/**
 * Bodies for a create or an update: hand-written objects most often, then broken, deep,
 * binary and oversized ones. `seededTexts` holds the texts of records made before the
 * properties run, read as each value is drawn (so it may be filled in after this call).
 */
export function hostileBodies(seededTexts: readonly string[]): fc.Arbitrary<string | Buffer> {
  const seededTextVariant = fc
    .tuple(fc.nat({ max: 5 }), fc.constantFrom('as is', 'upper', 'spaced', 'lower'))
    .map(([index, how]) => {
      const text = seededTexts[index] ?? '';
      if (how === 'upper') return text.toUpperCase();
      if (how === 'lower') return text.toLowerCase();
      return how === 'spaced' ? ` ${text.replaceAll(' ', ' \t ')}\n` : text;
    });
  const fieldText = fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
    {
      weight: 3,
      arbitrary: fc.string({
        unit: fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), loneSurrogate, edgeChar),
        maxLength: 30,
      }),
    },
    fc.string({ unit: 'grapheme-ascii', minLength: 195, maxLength: 205 }),
    fc.string({ unit: 'grapheme', minLength: 195, maxLength: 205 }),
    { weight: 2, arbitrary: seededTextVariant },
  );
  return fc.oneof(
    { weight: 10, arbitrary: objectText(fieldText) },
    { weight: 2, arbitrary: fc.json({ maxDepth: 4 }) },
    { weight: 2, arbitrary: brokenText },
    { weight: 1, arbitrary: deepText },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 40 }).map(wrapBytes) },
    { weight: 1, arbitrary: fc.integer({ min: 16 * 1024 - 8, max: 48 * 1024 }).map(paddedText) },
  );
}

/** A JSON object written by hand, so `__proto__` and repeated members reach the parser as sent. */
function objectText(fieldText: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const memberValue = fc.oneof(
    { weight: 8, arbitrary: fieldText.map((text) => JSON.stringify(text)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
    fc.constantFrom(
      ...['{"$gt":""}', '{"$ne":null}', '{"$regex":".*"}', '{"$where":"sleep(100)"}', '{"$in":["Financeiro"]}', '[{"$gt":""}]'],
      ...['1e999999', '-1e999999', '-0', '123456789012345678901234567890', '0.1e-400', '9007199254740993', 'null', 'true'],
      ...['{}', '[]', '{"toString":"x"}', '{"valueOf":1}', '{"polluted":"yes"}', '{"prototype":{"polluted":"yes"}}'],
    ),
  );
  const memberName = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('value', 'title') },
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'createdAt', 'updatedAt', '$where', '$set', 'Value', ''),
    fc.string({ unit: 'grapheme', maxLength: 10 }),
  );
  return fc
    .tuple(fc.subarray(['value', 'title']), memberValue, fc.array(fc.tuple(memberName, memberValue), { maxLength: 4 }))
    .map(([fields, value, extra]) => {
      const members = [...fields.map((field): [string, string] => [field, value]), ...extra];
      return `{${members.map(([name, text]) => `${JSON.stringify(name)}:${text}`).join(',')}}`;
    });
}
