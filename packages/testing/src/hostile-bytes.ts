import fc from 'fast-check';

// Requests written byte by byte, for the properties that go under Node's HTTP client.

// HEAD is left out: what Node does with a HEAD its parser refuses has a test of its own.
export const rawMethod = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS');

/** Pieces of a request after its request line: header lines right and wrong (one with `key`), framing, bodies, bytes. */
export function rawFragments(key: string): fc.Arbitrary<string> {
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constantFrom(
        ...[`KEY: ${key}\r\n`, 'KEY:\r\n', 'Content-Type: application/json\r\n', 'Content-Encoding: gzip\r\n'],
        ...['Content-Length: 5\r\n', 'Content-Length: -1\r\n', 'Content-Length: 99999999999999999999\r\n'],
        ...['Content-Length: 1\r\nContent-Length: 2\r\n', 'Transfer-Encoding: chunked\r\n', 'Transfer-Encoding: gzip, chunked\r\n'],
        ...['Transfer-Encoding: chunked\r\nContent-Length: 3\r\n', 'X-Request-Id: raw-id\r\n', ' folded\r\n'],
        ...['Connection: close\r\n', 'Connection: keep-alive\r\n', '\r\n', '{"value":"cru","title":"cru"}', '0\r\n\r\n'],
      ),
    },
    fc.constantFrom('\n', '\r', ':', ' ', '\t', '\0', '\x80\xff', '5\r\nabcde\r\n', 'zz\r\n'),
    fc.uint8Array({ minLength: 1, maxLength: 40 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  );
}

/** A header line of any bytes. */
export const headerLine = fc
  .tuple(fc.uint8Array({ maxLength: 20 }), fc.uint8Array({ maxLength: 60 }))
  .map(([name, value]) => Buffer.concat([name, Buffer.from(': '), value, Buffer.from('\r\n')]));

/** A request target of any bytes, a route (from `routes`) most often. */
export function rawTargets(routes: fc.Arbitrary<string>): fc.Arbitrary<Buffer> {
  return fc.oneof(
    { weight: 3, arbitrary: routes.map((path) => Buffer.from(path)) },
    fc.uint8Array({ minLength: 1, maxLength: 40 }).map((bytes) => Buffer.concat([Buffer.from('/'), bytes])),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }).map((text) => Buffer.from(`/api/v1/scale/${text}`)),
  );
}
