import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** A key's public name in logs and metrics: the first 8 hex characters of its SHA-256. */
export function fingerprintOf(key: string): string {
  return digest(key).toString('hex').slice(0, 8);
}

/** The keys the service accepts, compared in constant time. */
export class ApiKeys {
  #digests: readonly Buffer[] = [];

  constructor(keys: Iterable<string> = []) {
    this.replace(keys);
  }

  /** Swaps the whole set at once, so a rotation never leaves a moment with no keys. */
  replace(keys: Iterable<string>): void {
    this.#digests = [...new Set(keys)].map(digest);
  }

  get size(): number {
    return this.#digests.length;
  }

  /** The fingerprint of `candidate` when it is a configured key, else undefined. */
  identify(candidate: string): string | undefined {
    // Digests have one length whatever the key's, so the comparison leaks no length,
    // and every configured key is compared so the time does not say which one matched.
    const candidateDigest = digest(candidate);
    let matched = false;
    for (const known of this.#digests) matched = timingSafeEqual(known, candidateDigest) || matched;
    return matched ? candidateDigest.toString('hex').slice(0, 8) : undefined;
  }
}
