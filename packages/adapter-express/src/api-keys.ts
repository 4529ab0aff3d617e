import { hash, timingSafeEqual } from 'node:crypto';

/** The longest key the service holds, in UTF-8 bytes; longer candidates are refused unread. */
export const MAX_KEY_BYTES = 256;

/** What a key may do: `read` makes only GET and HEAD requests, `write` makes any. */
export type KeyRole = 'read' | 'write';

/** A configured key: the key itself, the name logs, metrics and history know it by, and its role. */
export interface KeyEntry {
  readonly key: string;
  readonly name: string;
  readonly role: KeyRole;
}

/** Who made a request: the name and role of its key, never the key. */
export interface KeyHolder {
  readonly name: string;
  readonly role: KeyRole;
}

/** A key's public name in logs and metrics: the first 8 hex characters of its SHA-256. */
export function fingerprintOf(key: string): string {
  return hash('sha256', key, 'hex').slice(0, 8);
}

/** A key as configured, with the contract's defaults: a `write` key, named by its fingerprint. */
export function keyEntryOf(key: string, given: { readonly name?: string; readonly role?: KeyRole } = {}): KeyEntry {
  return { key, name: given.name ?? fingerprintOf(key), role: given.role ?? 'write' };
}

/**
 * A key as compared: its byte length, then its bytes, zero-padded to one fixed size, so two
 * keys of different lengths still compare in the same time and never equal.
 */
function comparable(key: string, byteLength: number): Buffer {
  const bytes = Buffer.alloc(comparableSize);
  bytes.writeUInt16BE(byteLength, 0);
  bytes.write(key, 2, 'utf8');
  return bytes;
}

const comparableSize = 2 + MAX_KEY_BYTES;

/**
 * The keys the service accepts, compared in constant time. The configuration has checked
 * them as a set (no key with two names or roles, no name on two keys): this only holds them.
 */
export class ApiKeys {
  #known: readonly { readonly bytes: Buffer; readonly holder: KeyHolder }[] = [];
  readonly #onReplace = new Set<() => void>();

  constructor(entries: Iterable<KeyEntry> = []) {
    this.replace(entries);
  }

  /** Swaps the whole set at once, so a rotation never leaves a moment with no keys. */
  replace(entries: Iterable<KeyEntry>): void {
    const sized = [...entries].map((entry) => ({ ...entry, byteLength: Buffer.byteLength(entry.key) }));
    const tooLong = sized.filter(({ byteLength }) => byteLength > MAX_KEY_BYTES).length;
    if (tooLong > 0) throw new RangeError(`${tooLong} key(s) longer than ${MAX_KEY_BYTES} bytes`);
    this.#known = sized.map(({ key, byteLength, name, role }) => ({
      bytes: comparable(key, byteLength),
      holder: Object.freeze({ name, role }),
    }));
    for (const listener of this.#onReplace) listener();
  }

  /**
   * Calls `listener` after each `replace`, until the function returned is called: a request
   * held open checks its key again, so a key taken out reads nothing more.
   */
  onReplace(listener: () => void): () => void {
    this.#onReplace.add(listener);
    return () => {
      this.#onReplace.delete(listener);
    };
  }

  get size(): number {
    return this.#known.length;
  }

  /** The name and role of `candidate` when it is a configured key, else undefined. */
  identify(candidate: string): KeyHolder | undefined {
    // No key is that long, and refusing it unread says nothing about any key.
    const byteLength = Buffer.byteLength(candidate);
    if (byteLength > MAX_KEY_BYTES) return undefined;
    const bytes = comparable(candidate, byteLength);
    // Every configured key is compared, so the time does not say which one matched; the
    // candidate's padded bytes are compared as they are, with no hash of it made a request
    // (docs/benchmarks/README.md, "Why the code is as it is").
    let matched: KeyHolder | undefined;
    for (const known of this.#known) {
      if (timingSafeEqual(known.bytes, bytes)) matched = known.holder;
    }
    return matched;
  }
}
