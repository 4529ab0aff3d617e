// JavaScript compares strings by UTF-16 code unit; texts are ordered by code point, as SQLite
// and MongoDB compare UTF-8. The two orders differ only where the first units to differ are a
// surrogate (U+D800 to U+DFFF, half of a character above U+FFFF) and a unit from U+E000 up, so
// a text with no unit from U+D800 up is its own key, and in the others those units are moved:
// the surrogates above U+E000 to U+FFFF. Then `<` on keys is code point order, at native speed,
// where comparing by code point in a loop of ours would cost a text's length at each step.
const HIGH_UNIT = /[\uD800-\uFFFF]|[\u{10000}-\u{10FFFF}]/u;

/** A key of `text` whose UTF-16 order is the text's code point order; the text itself, mostly. */
export function codePointKey(text: string): string {
  if (!HIGH_UNIT.test(text)) return text;
  let key = '';
  for (let index = 0; index < text.length; index += 1) key += String.fromCharCode(rankOf(text.charCodeAt(index)));
  return key;
}

function rankOf(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}
