import { describe, expect, it } from 'vitest';
import { createUuidV7Generator } from './uuid-v7.js';

const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u;

/** The 128 bits of an id, as a big integer. */
const bitsOf = (id: string): bigint => BigInt(`0x${id.replaceAll('-', '')}`);

describe('UUID version 7 ids', () => {
  it('are lowercase canonical, with version 7 and the RFC 9562 variant', () => {
    const ids = createUuidV7Generator();
    for (let n = 0; n < 1000; n += 1) {
      const id = ids.next();
      expect(id).toMatch(CANONICAL);
      expect((bitsOf(id) >> 76n) & 0xfn).toBe(7n);
      expect((bitsOf(id) >> 62n) & 0b11n).toBe(0b10n);
    }
  });

  it('start with the Unix time in milliseconds', () => {
    const time = Date.UTC(2026, 10, 23, 14, 36, 43, 123);
    const id = createUuidV7Generator({ now: () => time }).next();
    expect(Number(bitsOf(id) >> 80n)).toBe(time);
    expect(id.startsWith(time.toString(16).padStart(12, '0').replace(/^(.{8})/u, '$1-'))).toBe(true);
  });

  it('sort by creation time as text, across milliseconds and within one', () => {
    let time = 1_700_000_000_000;
    const ids = createUuidV7Generator({ now: () => time });
    const made: string[] = [];
    for (let n = 0; n < 5000; n += 1) {
      made.push(ids.next());
      if (n % 1000 === 999) time += 1;
    }
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
  });

  it('keep increasing when the clock steps back or a millisecond runs out of counts', () => {
    const times = [5000, 5000, 4000, ...Array<number>(9000).fill(4000)];
    const ids = createUuidV7Generator({ now: () => times.shift() ?? 4000, fillRandom: (bytes) => bytes.fill(0xff) });
    const made = Array.from({ length: 9003 }, () => ids.next());
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(made.length);
  });

  it('take their other bits from the random source', () => {
    const zeros = createUuidV7Generator({ now: () => 0, fillRandom: (bytes) => bytes.fill(0) }).next();
    const ones = createUuidV7Generator({ now: () => 0, fillRandom: (bytes) => bytes.fill(0xff) }).next();
    expect(zeros).toBe('00000000-0000-7000-8000-000000000000');
    expect(ones).toBe('00000000-0000-77ff-bfff-ffffffffffff');
  });

  it('take 16 random bytes of their own each', () => {
    const draws: number[] = [];
    let next = 0;
    const counting = (bytes: Uint8Array): void => {
      draws.push(bytes.length);
      for (let index = 0; index < bytes.length; index += 1) bytes[index] = next++ & 0xff;
    };
    const ids = createUuidV7Generator({ now: () => 0, fillRandom: counting });
    const made = Array.from({ length: 300 }, () => ids.next());
    expect(draws).toEqual(Array.from({ length: 300 }, () => 16));
    // The last 6 bytes of the nth id are bytes 10 to 15 of its 16: 16n + 10 onwards.
    expect(made[1]?.slice(-12)).toBe('1a1b1c1d1e1f');
    expect(made[256]?.slice(-12)).toBe('0a0b0c0d0e0f');
    expect(made[2]?.slice(-12)).toBe('2a2b2c2d2e2f');
  });
});
