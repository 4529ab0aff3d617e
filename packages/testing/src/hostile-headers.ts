import { type OutgoingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import { char } from './hostile-paths.js';

// Header values as a hostile client writes them, for the hostile-input properties.

/** What node:http lets a client put in a header value: tab, visible ASCII, space and obs-text. */
const headerChar = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
  { weight: 1, arbitrary: fc.constant(0x09) },
).map(char);
export const headerValue = fc.string({ unit: headerChar, maxLength: 60 });

/** A `KEY` header: absent, several times, or as written. */
export type KeyHeader = string | string[] | undefined;

/** `KEY` headers around the service's one `key`: the key itself most often, near misses, anything. */
export function keyHeaders(key: string): fc.Arbitrary<KeyHeader> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant(key) },
    fc.constantFrom(undefined, '', [key, key], [key, 'x'.repeat(24)], key.toUpperCase(), ` ${key}\t`, `${key}x`, key.slice(0, -1)),
    headerValue,
  );
}

/** Media types, charsets and garbage for `Content-Type`. */
export const contentTypeArb = fc.oneof(
  fc.constantFrom(
    ...['application/json', 'APPLICATION/JSON', 'application/vnd.workplan+json', 'application/+json', 'application/json+x'],
    ...['application/json; charset', 'application/json; charset=', 'application/json;charset="utf-8"', 'text/json'],
    ...['application/json; charset=utf-8; charset=latin1', 'application/json, text/plain', 'application/*', '*/*', ';', '/'],
    ...['text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/xml', ''],
  ),
  fc
    .tuple(
      fc.constantFrom('application/json', 'application/problem+json', 'text/plain'),
      fc.constantFrom('utf-8', 'UTF-8', 'utf8', 'latin1', 'iso-8859-1', 'utf-16', 'us-ascii', '"utf-8"', 'utf-8;x=1', ''),
    )
    .map(([type, charset]) => `${type}; charset=${charset}`),
  headerValue,
);
const encodingArb = fc.oneof(
  fc.constantFrom('identity', 'IDENTITY', ' identity ', 'gzip', 'deflate', 'br', 'zstd', 'identity, gzip', 'gzip, identity', '', '*'),
  headerValue,
);
const requestIdArb = fc.oneof(
  fc.stringMatching(/^[\x21-\x7E]{1,128}$/u),
  fc.uuid(),
  headerValue,
  fc.string({ unit: headerChar, minLength: 129, maxLength: 300 }),
);
/** Framing and the headers set on their own are left out; Expect has its own test. */
const leftOutNames = new Set(['content-length', 'transfer-encoding', 'host', 'expect', 'connection', 'keep-alive', 'te', 'trailer']);
for (const name of ['upgrade', 'key', 'content-type', 'content-encoding', 'x-request-id']) leftOutNames.add(name);
const extraHeader = fc.tuple(
  fc.oneof(
    fc.constantFrom(
      ...['accept', 'accept-charset', 'accept-encoding', 'origin', 'authorization', 'cookie', 'range', 'if-none-match'],
      ...['x-forwarded-for', 'x-http-method-override', 'forwarded', 'x-api-key', 'access-control-request-method'],
    ),
    fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/u).filter((name) => !leftOutNames.has(name.toLowerCase())),
  ),
  headerValue,
);
const oneOrMany = (arb: fc.Arbitrary<string>) =>
  fc.option(fc.oneof({ weight: 4, arbitrary: arb }, fc.array(arb, { minLength: 2, maxLength: 3 })), { nil: undefined });

/** Whole header sets: a `KEY` from `keys`, media type, encoding, request id, and a few others. */
export function hostileHeaders(keys: fc.Arbitrary<KeyHeader>): fc.Arbitrary<OutgoingHttpHeaders> {
  return fc
    .record({
      key: keys,
      contentType: oneOrMany(contentTypeArb),
      contentEncoding: fc.option(encodingArb, { nil: undefined, freq: 3 }),
      requestId: oneOrMany(requestIdArb),
      extra: fc.array(extraHeader, { maxLength: 4 }),
    })
    .map(({ key: keyHeader, contentType, contentEncoding, requestId, extra }) => {
      const headers: OutgoingHttpHeaders = Object.fromEntries(extra);
      const named = { key: keyHeader, 'content-type': contentType, 'content-encoding': contentEncoding, 'x-request-id': requestId };
      for (const [name, value] of Object.entries(named)) if (value !== undefined) headers[name] = value;
      return headers;
    });
}
