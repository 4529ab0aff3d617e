import { describe, expect, it } from 'vitest';
import { KEPT_FINDS, KeptFinds } from './kept-finds.js';

const at = (dataVersion: number, ownWrites = 0) => ({ dataVersion, ownWrites });

/** A table whose reads are counted. */
function table(rows: Record<string, string>) {
  const reads: string[] = [];
  const read = (id: string) => () => {
    reads.push(id);
    return rows[id];
  };
  return { reads, read };
}

describe('KeptFinds', () => {
  it('serves a row again, unread, only at the stamp it was read at', () => {
    const finds = new KeptFinds<string>();
    const { reads, read } = table({ a: 'row a', b: 'row b' });
    expect(finds.rowOf('a', at(1), read('a'))).toBe('row a');
    expect(finds.rowOf('a', at(1), read('a'))).toBe('row a');
    expect(finds.rowOf('b', at(1), read('b'))).toBe('row b');
    expect(reads).toEqual(['a', 'b']);
    expect(finds.rowOf('a', at(2), read('a'))).toBe('row a'); // a commit came: read again
    expect(reads).toEqual(['a', 'b', 'a']);
    expect(finds.size).toBe(1); // and the rows read before it were dropped
  });

  it('reads again once this connection wrote', () => {
    const finds = new KeptFinds<string>();
    const { reads, read } = table({ a: 'row a' });
    finds.rowOf('a', at(1), read('a'));
    finds.rowOf('a', at(1, 1), read('a'));
    expect(reads).toEqual(['a', 'a']);
  });

  it('keeps nothing without a stamp, nor a row that is not there', () => {
    const finds = new KeptFinds<string>();
    const { reads, read } = table({ a: 'row a' });
    finds.rowOf('a', undefined, read('a'));
    finds.rowOf('a', undefined, read('a'));
    expect(finds.rowOf('gone', at(1), read('gone'))).toBeUndefined();
    expect(finds.rowOf('gone', at(1), read('gone'))).toBeUndefined();
    expect(reads).toEqual(['a', 'a', 'gone', 'gone']);
    expect(finds.size).toBe(0);
  });

  it(`holds at most ${KEPT_FINDS} rows, starting over when full`, () => {
    const finds = new KeptFinds<number>();
    for (let i = 0; i < KEPT_FINDS; i += 1) finds.rowOf(String(i), at(1), () => i);
    expect(finds.size).toBe(KEPT_FINDS);
    finds.rowOf('one more', at(1), () => -1);
    expect(finds.size).toBe(1);
    expect(finds.rowOf('one more', at(1), () => -2)).toBe(-1);
  });
});
