import { hash, timingSafeEqual } from 'node:crypto';

/** The longest key the service holds, in UTF-8 bytes; longer candidates are refused unread. */
export const MAX_KEY_BYTES = 256;

/** A key's public name in logs and metrics: the first 8 hex characters of its SHA-256. */
export function fingerprintOf(key: string): string {
  return hash('sha256', key, 'hex').slice(0, 8);
}

/**
 * A key as compared: its byte length, then its bytes, zero-padded to one fixed size, so two
 * keys of different lengths still compare in the same time and never equal.
 */
function comparable(key: string, byteLength: number, into: Buffer): Buffer {
  into.fill(0);
  into.writeUInt16BE(byteLength, 0);
  into.write(key, 2, 'utf8');
  return into;
}

const comparableSize = 2 + MAX_KEY_BYTES;

/** The keys the service accepts, compared in constant time. */
export class ApiKeys {
  #known: readonly { readonly bytes: Buffer; readonly fingerprint: string }[] = [];
  // One buffer for every candidate: requests are checked one at a time, synchronously.
  readonly #candidate = Buffer.alloc(comparableSize);

  constructor(keys: Iterable<string> = []) {
    this.replace(keys);
  }

  /** Swaps the whole set at once, so a rotation never leaves a moment with no keys. */
  replace(keys: Iterable<string>): void {
    const unique = [...new Set(keys)].map((key) => ({ key, byteLength: Buffer.byteLength(key) }));
    const tooLong = unique.filter(({ byteLength }) => byteLength > MAX_KEY_BYTES).length;
    if (tooLong > 0) throw new RangeError(`${tooLong} key(s) longer than ${MAX_KEY_BYTES} bytes`);
    this.#known = unique.map(({ key, byteLength }) => ({
      bytes: comparable(key, byteLength, Buffer.alloc(comparableSize)),
      fingerprint: fingerprintOf(key),
    }));
  }

  get size(): number {
    return this.#known.length;
  }

  /** The fingerprint of `candidate` when it is a configured key, else undefined. */
  identify(candidate: string): string | undefined {
    // No key is that long, and refusing it unread says nothing about any key.
    const byteLength = Buffer.byteLength(candidate);
    if (byteLength > MAX_KEY_BYTES) return undefined;
    const bytes = comparable(candidate, byteLength, this.#candidate);
    // Every configured key is compared, so the time does not say which one matched, and no
    // per-request hash is made: a find under load paid for hashing (docs/benchmarks/README.md).
    let matched: string | undefined;
    for (const known of this.#known) {
      if (timingSafeEqual(known.bytes, bytes)) matched = known.fingerprint;
    }
    return matched;
  }
}
