import { keyEntryOf, MAX_KEY_BYTES, type KeyEntry, type KeyRole } from '@workplan/adapter-express';

/** The shortest key the service accepts. */
export const MIN_KEY_LENGTH = 16;

/** The longest name a key may be given. */
const MAX_KEY_NAME_LENGTH = 64;

/** A key as configured, and where: `API_KEYS entry 2`, `API_KEYS_FILE (path) line 4`. */
export interface ConfiguredKey extends KeyEntry {
  readonly place: string;
}

// Names go into log lines, metric labels and history: letters (accented ones included),
// digits and a few marks that need no quoting anywhere, and never a space, which ends it.
// An accent only on something: accents alone show as nothing.
const NAME = new RegExp(`^(?!\\p{M})[\\p{L}\\p{M}\\p{N}._:@-]{1,${MAX_KEY_NAME_LENGTH}}$`, 'u');
const ROLES: readonly KeyRole[] = ['read', 'write'];
const ATTRIBUTES = 'name=NAME or role=read|write';

/**
 * The entries of `pieces` (the comma-separated parts of API_KEYS, the lines of the key file),
 * blanks skipped; `placeOf` names a piece by its index. Throws on the first bad entry.
 */
export function keyEntriesOf(pieces: readonly string[], placeOf: (index: number) => string): ConfiguredKey[] {
  return pieces.flatMap((piece, index) => (piece.trim() === '' ? [] : [parseKeyEntry(piece, placeOf(index))]));
}

/**
 * One entry: `KEY` alone, or followed by whitespace and any of `name=NAME` and
 * `role=read|write`, in either order. A mistake throws one line naming `place`, never
 * quoting the key, nor any word after it that could be part of one.
 */
export function parseKeyEntry(text: string, place: string): ConfiguredKey {
  const [key = '', ...words] = text.trim().split(/\s+/u);
  if (key.length < MIN_KEY_LENGTH) throw refusal(place, `the key is shorter than ${MIN_KEY_LENGTH} characters`);
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw refusal(place, `the key is longer than ${MAX_KEY_BYTES} bytes`);
  // A header carries bytes, and Node reads them as Latin-1: a key with any other character
  // would never match the UTF-8 a client sends.
  if (!/^[\x21-\x7E]+$/u.test(key)) throw refusal(place, 'the key holds a character other than visible ASCII (! to ~)');
  const given: { name?: string; role?: KeyRole } = {};
  words.forEach((word, index) => {
    // The key is word 1; counting from there tells an operator which word to look at.
    const problem = attributeProblem(word, index + 2, given);
    if (problem !== undefined) throw refusal(place, problem);
  });
  return { ...keyEntryOf(key, given), place };
}

/** Reads the `attribute=value` word at `position` into `given`, or says what is wrong with it. */
function attributeProblem(word: string, position: number, given: { name?: string; role?: KeyRole }): string | undefined {
  const equals = word.indexOf('=');
  const attribute = equals < 0 ? undefined : word.slice(0, equals);
  const value = word.slice(equals + 1);
  if (attribute === 'name') {
    if (given.name !== undefined) return 'name is given twice';
    // Composed (NFC): one name typed with its accents apart, or not, is one name in every log.
    const name = value.normalize('NFC');
    if (!NAME.test(name)) return `name must be 1 to ${MAX_KEY_NAME_LENGTH} letters, digits or . _ - : @`;
    given.name = name;
    return undefined;
  }
  if (attribute === 'role') {
    if (given.role !== undefined) return 'role is given twice';
    const role = ROLES.find((one) => one === value);
    if (role === undefined) return 'role must be read or write';
    given.role = role;
    return undefined;
  }
  // A short word before `=` is a mistyped attribute (`nome=`, `papel=`), worth naming; any
  // other word may be the rest of a key written with a space, and is only counted.
  if (attribute !== undefined && /^[A-Za-z]{1,16}$/u.test(attribute)) return `"${attribute}" is not an attribute: give ${ATTRIBUTES}`;
  return `word ${position} is not ${ATTRIBUTES} (a key holds no whitespace)`;
}

/**
 * The entries as one set: a key written twice (in API_KEYS and the file, say) counts once
 * when both say the same name and role, and is refused when they differ; a name is refused
 * on a second key, also in another case, so that logs and history always say which key it was.
 */
export function checkedKeySet(entries: readonly ConfiguredKey[]): ConfiguredKey[] {
  const byKey = new Map<string, ConfiguredKey>();
  const byName = new Map<string, ConfiguredKey>();
  for (const entry of entries) {
    const same = byKey.get(entry.key);
    if (same !== undefined) {
      if (same.name !== entry.name || same.role !== entry.role) {
        throw refusal(entry.place, `the same key as ${same.place}, with another name or role`);
      }
      continue;
    }
    // Upper, then lower case, as a search folds case (`Straße` is `STRASSE`), composed again.
    const folded = entry.name.toUpperCase().toLowerCase().normalize('NFC');
    const namesake = byName.get(folded);
    if (namesake !== undefined) {
      throw refusal(entry.place, `the name "${entry.name}" is already used by ${namesake.place} (names compare regardless of case): each key needs a name of its own`);
    }
    byKey.set(entry.key, entry);
    byName.set(folded, entry);
  }
  return [...byKey.values()];
}

function refusal(place: string, why: string): Error {
  return new Error(`${place}: ${why}`);
}
