/** The longest text a record may hold, in code points. */
export const MAX_TEXT_LENGTH = 200;

/** Which rule a text broke; the HTTP adapter turns each into a sentence. */
export type TextRule =
  | 'required'
  | 'notString'
  | 'malformedUnicode'
  | 'empty'
  | 'tooLong'
  | 'controlCharacter';

export type TextCheck = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly rule: TextRule };

// eslint-disable-next-line no-control-regex -- control characters are exactly what this rule forbids
const CONTROL_CHARACTER = /[\u0000-\u001F\u007F]/u;

/** Applies the value rules in the contract's order and returns the text to store, or the rule broken. */
export function checkText(raw: unknown): TextCheck {
  if (raw === undefined) return { ok: false, rule: 'required' };
  if (typeof raw !== 'string') return { ok: false, rule: 'notString' };
  if (!raw.isWellFormed()) return { ok: false, rule: 'malformedUnicode' };
  const text = raw.normalize('NFC').trim();
  if (text.length === 0) return { ok: false, rule: 'empty' };
  // The contract counts code points, which is exactly what spreading a string yields.
  // eslint-disable-next-line @typescript-eslint/no-misused-spread
  if ([...text].length > MAX_TEXT_LENGTH) return { ok: false, rule: 'tooLong' };
  if (CONTROL_CHARACTER.test(text)) return { ok: false, rule: 'controlCharacter' };
  return { ok: true, text };
}

/** The key two texts clash on: runs of white space folded to one space, then lower case. */
export function uniquenessKey(text: string): string {
  return text.replace(/\s+/gu, ' ').toLowerCase();
}

