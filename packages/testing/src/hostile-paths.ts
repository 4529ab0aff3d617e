import { METHODS } from 'node:http';
import fc from 'fast-check';
import { contractResources } from './http-contract-data.js';

// Methods and request targets as a hostile client writes them, for the hostile-input properties.

export const standardMethods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];
// CONNECT has its own test: Node drops it before the app sees it.
const oddMethods = METHODS.filter((method) => !standardMethods.includes(method) && method !== 'CONNECT');
/** Any method Node lets through, the usual ones most often. */
export const methodArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...standardMethods) },
  { weight: 3, arbitrary: fc.constantFrom(...oddMethods) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Z][A-Z_-]{0,11}$/u).filter((method) => method !== 'CONNECT') },
);

export const char = (code: number) => String.fromCharCode(code);
/** What node:http lets a client put in a path (0x21-0xFF), less the characters that end a segment. */
const pathChar = fc
  // Node's parser refuses every byte from 0x7F alike; visible ones keep counterexamples readable.
  .oneof({ weight: 9, arbitrary: fc.integer({ min: 0x21, max: 0x7e }) }, fc.integer({ min: 0xa1, max: 0xff }))
  .filter((code) => !'/?#'.includes(char(code)))
  .map(char);
// ASCII letters only: upper-casing 'ÿ' gives 'Ÿ', which node:http would refuse to send.
const upper = (c: string) => c.replace(/[a-z]/gu, (l) => l.toUpperCase());
const lower = (c: string) => c.replace(/[A-Z]/gu, (l) => l.toLowerCase());
const hex = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;

const garbageSegment = fc.constantFrom(
  ...['..', '.', '%00', '%', '%2', '%zz', '%E0%A4%A', '%2F', '%2e%2e', '%C0%AE', '%FF', '%ED%A0%80', '%EF%BB%BF'],
  ...['~', ';x=1', '@', ':', "'", '"', '\\', '$gt', '__proto__', 'constructor', 'prototype', 'toString'],
  ...['-1', '1.5', '1e3', '007', '0x10', '+1', '99999999999999999999', '10000001', 'NaN', 'Infinity', '%20', '*', 'é', '\xff'],
);
const pageSegment = fc.oneof(
  { weight: 3, arbitrary: fc.nat({ max: 2000 }).map(String) },
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  fc.integer({ min: -5, max: -1 }).map(String),
  garbageSegment,
);
export const resourceArb = fc.constantFrom(...contractResources);
/** Paths off the API: health, docs, the console, metrics, and the tricks of a path's form. */
export const otherPath = fc.constantFrom(
  ...['/', '/api', '/api/v1', '/api/v2/scales', '/health', '/health/live', '/health/ready', '/health/live/x', '/metrics'],
  ...['/docs', '/openapi.json', '/docs/assets/swagger-ui.css', '/docs/assets/..%2F..%2Fpackage.json', '/docs/init.js'],
  ...['/console', '/console/', '/console/index.html', '/console/favicon.svg', '/console/..%2F..%2Fpackage.json', '/console/.tsbuildinfo'],
  ...['*', '//api/v1/scales', '/api/v1/../v1/scales', '/api/v1/./scales', '/api//v1/scales', '/favicon.ico'],
  ...['http://127.0.0.1/api/v1/scales', 'api/v1/scales', '/%61pi/v1/scales', '/api/v1/scales%2F1', '/api/v1/scale%00'],
);
const casing = fc.constantFrom(
  (path: string) => path,
  lower,
  upper,
  (path: string) => Array.from(path, (c, i) => (i % 2 === 0 ? upper(c) : lower(c))).join(''),
);
const queryString = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  fc.string({ unit: pathChar, maxLength: 30 }).map((query) => `?${query}`),
  fc.constantFrom('?', '?__proto__[polluted]=1', '?constructor[prototype][polluted]=1', '?a=1&a=2', '?%zz', '#frag'),
);
const longTail = fc.oneof(
  { weight: 12, arbitrary: fc.constant('') },
  fc.integer({ min: 1000, max: 12_000 }).map((length) => `/${'a'.repeat(length)}`),
  fc.integer({ min: 200, max: 1000 }).map((count) => '/..'.repeat(count)),
  // Over Node's 16 KiB header limit: 431 from the parser.
  fc.integer({ min: 16_500, max: 20_000 }).map((length) => `/${'b'.repeat(length)}`),
);

/** Node's parser refuses a target with a byte outside visible ASCII, or one not in origin, absolute or asterisk form. */
export const parserRefuses = (path: string) => /[^\x21-\x7e]/u.test(path) || !/^(?:\/|\*$|http:\/\/)/u.test(path) || path.length > 15_000;

/**
 * The targets that name records: `seededIds` holds the ids of records made before the
 * properties run, read as each value is drawn (so it may be filled in after this call).
 */
export function hostileTargets(seededIds: readonly string[]) {
  const seededId = fc.nat({ max: 5 }).map((index) => seededIds[index] ?? '');
  const idSegment = fc.oneof(
    { weight: 3, arbitrary: seededId },
    seededId.map(upper),
    fc.uuid(),
    garbageSegment,
    fc.uint8Array({ minLength: 1, maxLength: 12 }).map((bytes) => Array.from(bytes, hex).join('')),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).map(encodeURIComponent),
    fc.string({ unit: pathChar, minLength: 1, maxLength: 12 }),
  );
  const routePath = fc.oneof(
    resourceArb.map((r) => `/api/v1/${r.singular}`),
    fc.tuple(resourceArb, idSegment).map(([r, id]) => `/api/v1/${r.singular}/${id}`),
    resourceArb.map((r) => `/api/v1/${r.plural}`),
    fc.tuple(resourceArb, pageSegment).map(([r, limit]) => `/api/v1/${r.plural}/${limit}`),
    fc.tuple(resourceArb, pageSegment, pageSegment).map(([r, skip, limit]) => `/api/v1/${r.plural}/${skip}/${limit}`),
  );
  /** Paths as a hostile client writes them: real routes and garbage, any case, slashes and queries. */
  const hostilePath = fc
    .tuple(
      fc.oneof(
        { weight: 6, arbitrary: routePath },
        { weight: 2, arbitrary: otherPath },
        { weight: 2, arbitrary: fc.array(idSegment, { minLength: 1, maxLength: 5 }).map((s) => `/${s.join('/')}`) },
      ),
      casing,
      longTail,
      fc.constantFrom('', '', '', '', '/', '//', '/.', '%2F', ';'),
      queryString,
    )
    .map(([path, recase, tail, trailing, query]) => `${recase(path + tail + trailing)}${query}`);
  /** A method and a path of one of the ten operations, so that the key and what follows it get reached. */
  const operationCall = fc
    .tuple(
      fc.oneof(
        resourceArb.map((r): [string, string] => ['POST', `/api/v1/${r.singular}`]),
        fc
          .tuple(fc.constantFrom('GET', 'HEAD', 'PUT', 'DELETE'), resourceArb, idSegment)
          .map(([method, r, id]): [string, string] => [method, `/api/v1/${r.singular}/${id}`]),
        fc
          .tuple(fc.constantFrom('GET', 'HEAD'), resourceArb, fc.array(pageSegment, { maxLength: 2 }))
          .map(([method, r, pages]): [string, string] => [method, ['/api/v1', r.plural, ...pages].join('/')]),
      ),
      casing,
      fc.constantFrom('', '', '/'),
      queryString,
    )
    .map(([[method, path], recase, trailing, query]): [string, string] => [method, `${recase(path + trailing)}${query}`]);
  /** The routes whose target Node's parser takes, for requests written byte by byte. */
  const asciiRoutePath = routePath.filter((path) => !parserRefuses(path));
  /** A write to a real or unknown record, of either resource. */
  const writeTarget = fc.oneof(
    resourceArb.map((r) => ({ method: 'POST', path: `/api/v1/${r.singular}` })),
    fc.tuple(resourceArb, fc.oneof({ weight: 3, arbitrary: seededId }, fc.uuid())).map(([r, id]) => ({
      method: 'PUT',
      path: `/api/v1/${r.singular}/${id}`,
    })),
  );
  return { routePath, hostilePath, operationCall, asciiRoutePath, writeTarget };
}
