import { notACursor, type ListCursor } from '@workplan/core';

/**
 * The cursor of a next page as a client sees it: base64url of the core's cursor as JSON.
 * Opaque on purpose: what it holds (the list, its order and search, a record's place) may
 * change, and a client only hands back what it was given.
 */
export function cursorToken(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]+$/u;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The cursor a token holds, for the core to check against the list it is used with (its
 * kind, order and search); a token this service cannot have written is refused here. The
 * token's length is bounded by the request line, which Node's header limit bounds.
 */
export function cursorOfToken(token: string): unknown {
  if (!BASE64URL.test(token)) throw notACursor();
  const bytes = Buffer.from(token, 'base64url');
  // Node's decoder passes over what it cannot read; only a token written back the same is one of ours.
  if (bytes.toString('base64url') !== token) throw notACursor();
  try {
    return JSON.parse(strictUtf8.decode(bytes));
  } catch {
    throw notACursor(); // Not UTF-8, or not JSON: not a cursor.
  }
}
