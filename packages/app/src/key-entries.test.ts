import { fingerprintOf } from '@workplan/adapter-express';
import { describe, expect, it } from 'vitest';
import { checkedKeySet, keyEntriesOf, parseKeyEntry, type ConfiguredKey } from './key-entries.js';

const key = 'folha-key-0123456789';
const other = 'ponto-key-0123456789';
const place = 'API_KEYS entry 2';

/** Runs `attempt`, which must throw, and hands back its one-line message. */
function refusalOf(attempt: () => unknown): string {
  try {
    attempt();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('the entry was accepted');
}

describe('parseKeyEntry', () => {
  it('reads a key alone as a write key named by its fingerprint', () => {
    expect(parseKeyEntry(`  ${key}  `, place)).toEqual({ key, name: fingerprintOf(key), role: 'write', place });
  });

  it.each([
    [`${key} name=Folha role=read`, { name: 'Folha', role: 'read' }],
    [`${key} role=read name=Folha`, { name: 'Folha', role: 'read' }],
    [`${key}\tname=Folha\t role=write`, { name: 'Folha', role: 'write' }],
    [`${key} name=Folha`, { name: 'Folha', role: 'write' }],
    [`${key} role=read`, { name: fingerprintOf(key), role: 'read' }],
    [`${key} name=Contábil-2026_b.c:d@e`, { name: 'Contábil-2026_b.c:d@e', role: 'write' }],
    [`${key} name=${'n'.repeat(64)}`, { name: 'n'.repeat(64), role: 'write' }],
  ])('reads %j', (text, expected) => {
    expect(parseKeyEntry(text, place)).toEqual({ key, ...expected, place });
  });

  it('takes any character but whitespace in a key, = included', () => {
    expect(parseKeyEntry('abc=def/ghi+jkl==== role=read', place)).toMatchObject({ key: 'abc=def/ghi+jkl====', role: 'read' });
  });

  it.each([
    [`${key} role=admin`, 'role must be read or write'],
    [`${key} role=READ`, 'role must be read or write'],
    [`${key} role=`, 'role must be read or write'],
    [`${key} role=read role=write`, 'role is given twice'],
    [`${key} name=`, 'name must be 1 to 64 letters, digits or . _ - : @'],
    [`${key} name=a,b`, 'name must be 1 to 64 letters, digits or . _ - : @'],
    [`${key} name="Folha"`, 'name must be 1 to 64 letters, digits or . _ - : @'],
    [`${key} name=${'n'.repeat(65)}`, 'name must be 1 to 64 letters, digits or . _ - : @'],
    [`${key} name=Folha name=Folha`, 'name is given twice'],
    [`${key} nome=Folha`, '"nome" is not an attribute: give name=NAME or role=read|write'],
    [`${key} Name=Folha`, '"Name" is not an attribute: give name=NAME or role=read|write'],
    [`${key} read`, 'word 2 is not name=NAME or role=read|write (a key holds no whitespace)'],
    [`${key} name=Folha -secret-part-of-a-key`, 'word 3 is not name=NAME or role=read|write (a key holds no whitespace)'],
    ['short-key name=Folha', 'the key is shorter than 16 characters'],
    ['name=Folha role=read', 'the key is shorter than 16 characters'],
    [`${'k'.repeat(257)} role=read`, 'the key is longer than 256 bytes'],
    ['chave-de-acesso-é-0123 role=read', 'the key holds a character other than visible ASCII (! to ~)'],
  ])('refuses %j in one line naming its place, never quoting the key', (text, why) => {
    const message = refusalOf(() => parseKeyEntry(text, place));
    expect(message).toBe(`${place}: ${why}`);
    expect(message).not.toContain(key);
  });

  it('never quotes a word that may be the rest of a key written with a space', () => {
    const message = refusalOf(() => parseKeyEntry(`${key} second-half=of-the-key-012345`, place));
    expect(message).toBe(`${place}: word 2 is not name=NAME or role=read|write (a key holds no whitespace)`);
  });
});

describe('keyEntriesOf', () => {
  it('skips blank pieces and names each entry by its own index', () => {
    const entries = keyEntriesOf(['', `${key} role=read`, '  ', other], (index) => `line ${index + 1}`);
    expect(entries.map(({ name, role, place: at }) => ({ name, role, place: at }))).toEqual([
      { name: fingerprintOf(key), role: 'read', place: 'line 2' },
      { name: fingerprintOf(other), role: 'write', place: 'line 4' },
    ]);
  });

  it('refuses at the first bad entry, by its place', () => {
    expect(() => keyEntriesOf([key, `${other} role=admin`], (index) => `line ${index + 1}`)).toThrow('line 2: role must be read or write');
  });
});

describe('checkedKeySet', () => {
  const entry = (text: string, at: string): ConfiguredKey => parseKeyEntry(text, at);

  it('keeps a key written twice alike once', () => {
    const set = checkedKeySet([entry(`${key} name=Folha`, 'API_KEYS entry 1'), entry(`${key} role=write name=Folha`, 'line 3')]);
    expect(set).toEqual([{ key, name: 'Folha', role: 'write', place: 'API_KEYS entry 1' }]);
  });

  it.each([
    [`${key} name=Folha`, `${key} name=Folha role=read`],
    [`${key} name=Folha`, `${key} name=Ponto`],
    [key, `${key} name=Folha`],
  ])('refuses %j and then %j: one key, two names or roles', (first, second) => {
    const message = refusalOf(() => checkedKeySet([entry(first, 'API_KEYS entry 1'), entry(second, 'line 3')]));
    expect(message).toBe('line 3: the same key as API_KEYS entry 1, with another name or role');
  });

  it('refuses a name given to two keys, whatever their roles', () => {
    const message = refusalOf(() => checkedKeySet([entry(`${key} name=Folha`, 'line 1'), entry(`${other} name=Folha role=read`, 'line 2')]));
    expect(message).toBe('line 2: the name "Folha" is already used by line 1 (names compare regardless of case): each key needs a name of its own');
    expect(message).not.toContain(other);
  });

  it('refuses a name that is another key\'s fingerprint, since that is its name', () => {
    const message = refusalOf(() => checkedKeySet([entry(key, 'line 1'), entry(`${other} name=${fingerprintOf(key)}`, 'line 2')]));
    expect(message).toMatch(`line 2: the name "${fingerprintOf(key)}" is already used by line 1 `);
  });

  it('refuses a name that differs from another only in case, which would not say who', () => {
    const message = refusalOf(() => checkedKeySet([entry(`${key} name=Folha`, 'line 1'), entry(`${other} name=FOLHA`, 'line 2')]));
    expect(message).toMatch(/^line 2: the name "FOLHA" is already used by line 1 /u);
  });

  it('refuses a name of accents alone, which shows as nothing in a log or a history', () => {
    for (const name of ['\u0301\u0301', '\u0327']) {
      expect(refusalOf(() => parseKeyEntry(`${key} name=${name}`, place))).toBe(`${place}: name must be 1 to 64 letters, digits or . _ - : @`);
    }
  });

  it('keeps a name in one form, composed, so the same name typed either way is one name', () => {
    const decomposed = 'Folhac\u0327a\u0303o';
    expect(parseKeyEntry(`${key} name=${decomposed}`, place).name).toBe('Folhação');
    const message = refusalOf(() => checkedKeySet([entry(`${key} name=Folhação`, 'line 1'), entry(`${other} name=${decomposed}`, 'line 2')]));
    expect(message).toMatch(/^line 2: the name "Folhação" is already used by line 1 /u);
  });

  it('compares names regardless of case as a search folds it (upper, then lower), so Straße and STRASSE are one name', () => {
    const message = refusalOf(() => checkedKeySet([entry(`${key} name=Straße`, 'line 1'), entry(`${other} name=STRASSE`, 'line 2')]));
    expect(message).toMatch(/^line 2: the name "STRASSE" is already used by line 1 /u);
    // Case folding can take a letter apart: the folded names are composed again before they are compared.
    const greek = refusalOf(() => checkedKeySet([entry(`${key} name=\u0390`, 'line 1'), entry(`${other} name=\u03AA\u0301`, 'line 2')]));
    expect(greek).toMatch(/^line 2: the name ".+" is already used by line 1 /u);
  });

  it('keeps keys of distinct names and roles, in order', () => {
    const set = checkedKeySet([entry(`${key} name=Folha role=read`, 'line 1'), entry(`${other} name=Ponto`, 'line 2')]);
    expect(set.map(({ name, role }) => `${name}:${role}`)).toEqual(['Folha:read', 'Ponto:write']);
  });
});
