import { describe, expect, it } from 'vitest';
import { KEPT_FINDS, KeptFinds } from './kept-finds.js';

const at = (commits: number, ownWrites = 0) => ({ commits, ownWrites });

describe('KeptFinds', () => {
  it('serves a row again only at the stamp it was read at', () => {
    const finds = new KeptFinds<string>();
    expect(finds.get('a', at(1))).toBeUndefined();
    finds.set('a', at(1), 'row a');
    expect(finds.get('a', at(1))).toBe('row a');
    expect(finds.get('b', at(1))).toBeUndefined();
    expect(finds.get('a', at(2))).toBeUndefined(); // a commit came
    expect(finds.get('a', at(1))).toBeUndefined(); // and dropped every row
  });

  it('drops every row when this connection wrote', () => {
    const finds = new KeptFinds<string>();
    finds.get('a', at(1));
    finds.set('a', at(1), 'row a');
    expect(finds.get('a', at(1, 1))).toBeUndefined();
    expect(finds.size).toBe(0);
  });

  it('keeps nothing without a stamp, or read at a stamp other than the current one', () => {
    const finds = new KeptFinds<string>();
    finds.set('a', undefined, 'row a');
    expect(finds.get('a', undefined)).toBeUndefined();
    finds.get('a', at(2));
    finds.set('a', at(1), 'row a, read before a commit');
    expect(finds.get('a', at(2))).toBeUndefined();
    expect(finds.size).toBe(0);
  });

  it(`holds at most ${KEPT_FINDS} rows, starting over when full`, () => {
    const finds = new KeptFinds<number>();
    finds.get('0', at(1));
    for (let i = 0; i < KEPT_FINDS; i += 1) finds.set(String(i), at(1), i);
    expect(finds.size).toBe(KEPT_FINDS);
    finds.set('one more', at(1), -1);
    expect(finds.size).toBe(1);
    expect(finds.get('one more', at(1))).toBe(-1);
  });
});
