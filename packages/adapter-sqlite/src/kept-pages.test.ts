import { describe, expect, it } from 'vitest';
import { KEPT_PAGES, KEPT_ROWS, KeptPages } from './kept-pages.js';

const at = (dataVersion: number, ownWrites = 0) => ({ dataVersion, ownWrites });

describe('KeptPages', () => {
  it('serves a page again only at the stamp it was read at', () => {
    const pages = new KeptPages<string>();
    pages.set('0/2', at(1), ['a', 'b']);
    expect(pages.get('0/2', at(1))).toEqual(['a', 'b']);
    expect(pages.get('0/2', at(2))).toBeUndefined(); // another connection committed
    expect(pages.get('0/2', at(1, 1))).toBeUndefined(); // this connection wrote
    expect(pages.get('2/2', at(1))).toBeUndefined();
  });

  it('keeps a page once, the newer reading replacing the older', () => {
    const pages = new KeptPages<string>();
    pages.set('0/2', at(1), ['a', 'b']);
    pages.set('0/2', at(2), ['a', 'c']);
    expect(pages.get('0/2', at(2))).toEqual(['a', 'c']);
    expect(pages.rows).toBe(2);
  });

  it(`holds at most ${KEPT_ROWS} rows, dropping the oldest pages first`, () => {
    const pages = new KeptPages<number>();
    const page = Array.from({ length: 1000 }, (_, i) => i);
    for (let skip = 0; skip <= 10; skip += 1) pages.set(`${skip * 1000}/1000`, at(1), page);
    expect(pages.rows).toBe(KEPT_ROWS);
    expect(pages.get('0/1000', at(1))).toBeUndefined();
    expect(pages.get('10000/1000', at(1))).toHaveLength(1000);
    pages.set('huge', at(1), Array.from({ length: KEPT_ROWS + 1 }, (_, i) => i));
    expect(pages.get('huge', at(1))).toBeUndefined();
    expect(pages.rows).toBe(KEPT_ROWS);
  });

  it(`holds at most ${KEPT_PAGES} pages, even empty ones`, () => {
    const pages = new KeptPages<number>();
    for (let skip = 0; skip < KEPT_PAGES + 10; skip += 1) pages.set(`${skip}/10`, at(1), []);
    expect(pages.pages).toBe(KEPT_PAGES);
    expect(pages.get('0/10', at(1))).toBeUndefined();
    expect(pages.get(`${KEPT_PAGES + 9}/10`, at(1))).toEqual([]);
  });
});
