import { type IdGenerator } from './ports.js';

/** The one part of the Web Crypto API used here, which Node and browsers both have. */
interface RandomSource {
  getRandomValues<T extends Uint8Array>(array: T): T;
}

/** Where a generator reads the time and its random bits; tests pass their own. */
export interface UuidV7Sources {
  /** Milliseconds since the Unix epoch. */
  readonly now?: () => number;
  /** Fills the array with random bytes. */
  readonly fillRandom?: (bytes: Uint8Array) => void;
}

// rand_a (12 bits after the version) counts ids made within one millisecond (RFC 9562,
// section 6.2, method 1), so ids from one generator sort in the order they were made. Each
// millisecond starts the count at a random value below half, leaving at least 2048 ids of room.
const COUNTER_MAX = 0xfff;
const COUNTER_SEED_MASK = 0x7ff;

const ID_BYTES = 16;

/**
 * Makes UUID version 7 ids (RFC 9562): 48 bits of Unix time in milliseconds, the version,
 * a 12-bit counter, the variant, and 62 random bits, in lowercase canonical form. Ids sort
 * by creation time as text and as bytes; ids from one generator strictly increase, also
 * within a millisecond and when the clock steps back.
 */
export function createUuidV7Generator(sources: UuidV7Sources = {}): IdGenerator {
  const now = sources.now ?? Date.now;
  const fillRandom = sources.fillRandom ?? webCryptoRandom();
  let lastTime = -1;
  let counter = 0;
  return {
    next(): string {
      const bytes = new Uint8Array(ID_BYTES);
      fillRandom(bytes);
      const time = now();
      if (time > lastTime) {
        lastTime = time;
        counter = ((bytes[6] ?? 0) << 8 | (bytes[7] ?? 0)) & COUNTER_SEED_MASK;
      } else if (counter < COUNTER_MAX) {
        counter += 1;
      } else {
        // The count of this millisecond is spent (or the clock went back): borrow the next one.
        lastTime += 1;
        counter = 0;
      }
      writeTime(bytes, lastTime);
      bytes[6] = 0x70 | (counter >> 8);
      bytes[7] = counter & 0xff;
      bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
      return canonical(bytes);
    },
  };
}

function webCryptoRandom(): (bytes: Uint8Array) => void {
  // Looked up when an id is made, not at import, so a platform without Web Crypto still loads the core.
  return (bytes) => {
    const crypto = (globalThis as { crypto?: RandomSource }).crypto;
    if (crypto === undefined) throw new Error('no Web Crypto API (globalThis.crypto) to make ids with: pass `ids` to createWorkplan');
    crypto.getRandomValues(bytes);
  };
}

/** Big-endian 48-bit milliseconds into bytes 0 to 5. */
function writeTime(bytes: Uint8Array, time: number): void {
  let rest = time;
  for (let index = 5; index >= 0; index -= 1) {
    bytes[index] = rest % 256;
    rest = Math.floor(rest / 256);
  }
}

/** 8-4-4-4-12 lowercase hex digits. */
function canonical(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
