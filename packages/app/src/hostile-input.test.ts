import { METHODS, type OutgoingHttpHeaders } from 'node:http';
import {
  contractResources,
  expectContractAnswer,
  firstAnswer,
  operationOf,
  send,
  sendRaw,
  storedRecords,
  type HttpAnswer,
  type HttpCall,
} from '@workplan/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';
import { startService, type RunningService } from './service.js';

// Property-based hostile input: whatever arrives, the answer is one of the contract's
// statuses in the envelope, and a failed request changes no stored record. Each property
// has a fixed seed, so a run is reproducible; fast-check prints the seed, the path and the
// shrunk counterexample when one fails.

const key = 'hostile-key-0123456789abcdef';
/** Fixed, so every run is the same; set HOSTILE_INPUT_SEED to explore other inputs. */
const SEED = Number(process.env.HOSTILE_INPUT_SEED ?? 20_261_123);
/** Long enough for the properties with shrinking; a passing run takes a few seconds. */
const PROPERTY_TIMEOUT_MS = 120_000;

let service: RunningService;
const seededIds: string[] = [];
const seededTexts: string[] = [];
let snapshot = '';
let prototypeNames = '';

beforeAll(async () => {
  // A page maximum above any number of records the properties create, so one list holds them all.
  const env = { PORT: '0', HOST: '127.0.0.1', API_KEYS: key, STORAGE: 'memory', LIST_MAX_LIMIT: '100000', LOG_LEVEL: 'error' };
  service = await startService(parseConfig(env));
  for (const resource of contractResources) {
    for (const text of ['Escala Fixa 12x36', 'São Paulo Centro', 'Financeiro']) {
      const body = JSON.stringify({ [resource.field]: text });
      const path = `/api/v1/${resource.singular}`;
      const answer = await send(service.url, { method: 'POST', path, headers: jsonHeaders, body });
      expect(answer.status).toBe(201);
      seededIds.push((answer.json as { data: { id: string } }).data.id);
      seededTexts.push(text);
    }
  }
  snapshot = await storedRecords(service.url, key);
  prototypeNames = Object.getOwnPropertyNames(Object.prototype).join();
});

afterAll(async () => {
  await service.close();
});

const jsonHeaders = { key, 'content-type': 'application/json' };
const READ_ONLY = new Set(['GET', 'HEAD', 'OPTIONS']);

/** After a request that could write: a failure must leave the store as it was; a success moves the snapshot on. */
async function expectStoreKeptUnlessSucceeded(method: string, status: number): Promise<void> {
  if (READ_ONLY.has(method)) return;
  const now = await storedRecords(service.url, key);
  if (!(status < 400)) expect(now, `a failed ${method} (${status}) changed stored records`).toBe(snapshot);
  snapshot = now;
}

function expectNoPrototypePollution(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).join(), 'Object.prototype was changed').toBe(prototypeNames);
}

/** Sends one call, checks the answer against the contract and the store against the snapshot. */
async function exchange(call: HttpCall & { method: string }): Promise<HttpAnswer> {
  const answer = await send(service.url, call);
  const ids = call.headers?.['x-request-id'];
  const requestIds = typeof ids === 'string' ? [ids] : Array.isArray(ids) ? ids : [];
  expectContractAnswer(answer, { method: call.method, path: call.path, requestIds });
  expectNoPrototypePollution();
  await expectStoreKeptUnlessSucceeded(call.method, answer.status);
  return answer;
}

async function exchangeRaw(bytes: Buffer, method: string, path: string): Promise<void> {
  const answer = firstAnswer(await sendRaw(service.url, bytes));
  expectContractAnswer(answer, { method, path });
  await expectStoreKeptUnlessSucceeded(method, answer.status);
}

const runs = (numRuns: number, offset: number) => ({ numRuns, seed: SEED + offset });

// ---- Arbitraries: methods, paths, headers, bodies ----

const standardMethods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];
// CONNECT has its own test below: Node drops it before the app sees it.
const oddMethods = METHODS.filter((method) => !standardMethods.includes(method) && method !== 'CONNECT');
const methodArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...standardMethods) },
  { weight: 3, arbitrary: fc.constantFrom(...oddMethods) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Z][A-Z_-]{0,11}$/u).filter((method) => method !== 'CONNECT') },
);

const char = (code: number) => String.fromCharCode(code);
/** What node:http lets a client put in a header value: tab, visible ASCII, space and obs-text. */
const headerChar = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
  { weight: 1, arbitrary: fc.constant(0x09) },
).map(char);
const headerValue = fc.string({ unit: headerChar, maxLength: 60 });
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
const pageSegment = fc.oneof(
  { weight: 3, arbitrary: fc.nat({ max: 2000 }).map(String) },
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  fc.integer({ min: -5, max: -1 }).map(String),
  garbageSegment,
);
const resourceArb = fc.constantFrom(...contractResources);
const routePath = fc.oneof(
  resourceArb.map((r) => `/api/v1/${r.singular}`),
  fc.tuple(resourceArb, idSegment).map(([r, id]) => `/api/v1/${r.singular}/${id}`),
  resourceArb.map((r) => `/api/v1/${r.plural}`),
  fc.tuple(resourceArb, pageSegment).map(([r, limit]) => `/api/v1/${r.plural}/${limit}`),
  fc.tuple(resourceArb, pageSegment, pageSegment).map(([r, skip, limit]) => `/api/v1/${r.plural}/${skip}/${limit}`),
);
const otherPath = fc.constantFrom(
  ...['/', '/api', '/api/v1', '/api/v2/scales', '/health', '/health/live', '/health/ready', '/health/live/x', '/metrics'],
  ...['/docs', '/openapi.json', '/docs/assets/swagger-ui.css', '/docs/assets/..%2F..%2Fpackage.json', '/docs/init.js'],
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

type KeyHeader = string | string[] | undefined;
const keyArb: fc.Arbitrary<KeyHeader> = fc.oneof(
  { weight: 5, arbitrary: fc.constant(key) },
  fc.constantFrom(undefined, '', [key, key], [key, 'x'.repeat(24)], key.toUpperCase(), ` ${key}\t`, `${key}x`, key.slice(0, -1)),
  headerValue,
);
/** Node trims the optional white space around a header value, nothing else. */
const keyIsRight = (sent: KeyHeader) => typeof sent === 'string' && sent.replace(/^[ \t]+|[ \t]+$/gu, '') === key;
/** Node's parser refuses a target with a byte outside visible ASCII, or one not in origin, absolute or asterisk form. */
const parserRefuses = (path: string) => /[^\x21-\x7e]/u.test(path) || !/^(?:\/|\*$|http:\/\/)/u.test(path) || path.length > 15_000;
const decodes = (path: string) => {
  try {
    decodeURIComponent(path.split(/[?#]/u)[0] ?? '');
    return true;
  } catch {
    return false; // Malformed percent-encoding is refused before the key is read.
  }
};

const contentTypeArb = fc.oneof(
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
/** Framing and the headers set on their own are left out; Expect has its own test below. */
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
const headersArb = fc
  .record({
    key: keyArb,
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

// Bodies.
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map(char);
const edgeChar = fc.constantFrom(
  ...['\u0000', '\u001f', '\u007f', '\u0085', '\u00a0', '\ufeff', '\u200b', '\u202e', '\u2028', '\uffff', '\ufffe'],
  ...['e\u0301', '\u1e9b\u0323', '🙂', '👩‍👩‍👧', '\t', '\n', '\r', ' ', '\\', '"', 'İ', 'ß', 'ﬃ', 'Σ'],
);
const seededTextVariant = fc
  .tuple(fc.nat({ max: 5 }), fc.constantFrom('as is', 'upper', 'spaced', 'lower'))
  .map(([index, how]) => {
    const text = seededTexts[index] ?? '';
    if (how === 'upper') return text.toUpperCase();
    if (how === 'lower') return text.toLowerCase();
    return how === 'spaced' ? ` ${text.replaceAll(' ', ' \t ')}\n` : text;
  });
const fieldText = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  {
    weight: 3,
    arbitrary: fc.string({
      unit: fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), loneSurrogate, edgeChar),
      maxLength: 30,
    }),
  },
  fc.string({ unit: 'grapheme-ascii', minLength: 195, maxLength: 205 }),
  fc.string({ unit: 'grapheme', minLength: 195, maxLength: 205 }),
  { weight: 2, arbitrary: seededTextVariant },
);
const memberValue = fc.oneof(
  { weight: 8, arbitrary: fieldText.map((text) => JSON.stringify(text)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
  fc.constantFrom(
    ...['{"$gt":""}', '{"$ne":null}', '{"$regex":".*"}', '{"$where":"sleep(100)"}', '{"$in":["Financeiro"]}', '[{"$gt":""}]'],
    ...['1e999999', '-1e999999', '-0', '123456789012345678901234567890', '0.1e-400', '9007199254740993', 'null', 'true'],
    ...['{}', '[]', '{"toString":"x"}', '{"valueOf":1}', '{"polluted":"yes"}', '{"prototype":{"polluted":"yes"}}'],
  ),
);
const memberName = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('value', 'title') },
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'createdAt', 'updatedAt', '$where', '$set', 'Value', ''),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
);
/** A JSON object written by hand, so `__proto__` and repeated members reach the parser as sent. */
const objectText = fc
  .tuple(fc.subarray(['value', 'title']), memberValue, fc.array(fc.tuple(memberName, memberValue), { maxLength: 4 }))
  .map(([fields, value, extra]) => {
    const members = [...fields.map((field): [string, string] => [field, value]), ...extra];
    return `{${members.map(([name, text]) => `${JSON.stringify(name)}:${text}`).join(',')}}`;
  });
const brokenText = fc.constantFrom(
  ...['', ' ', 'null', 'true', '0', '"x"', '[]', '{}', '{', '}', '{"value":}', '{"value":"x",}', "{'value':'x'}"],
  ...['{"value":"\\ud800"}', '{"value":"\\udc00x\\ud83d","title":"\\udfff"}', '{"value":"\\u0000"}', '\ufeff{"value":"bom"}'],
  ...['{"value":"x"} trailing', '{"value":"y"}{"value":"z"}', 'NaN', '{"value":NaN}', '{"value":Infinity}', '/*c*/{}'],
  ...['{"__proto__":{"value":"polluted"}}', '{"constructor":{"prototype":{"polluted":true}}}', '{"__proto__":null,"value":"w"}'],
  ...['{"value":{"$gt":""}}', '{"title":{"$ne":null}}', '{"$where":"1","value":"v"}', '{"value":"\\u0041"}'],
);
const deepText = fc.oneof(
  fc.integer({ min: 1, max: 8200 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.integer({ min: 1, max: 3000 }).map((depth) => `{"value":${'{"a":'.repeat(depth)}1${'}'.repeat(depth + 1)}`),
  fc.integer({ min: 1, max: 4200 }).map((depth) => `{"title":${'['.repeat(depth)}"x"${']'.repeat(depth)},"value":"d"}`),
);
/** A document of exactly `size` bytes, valid JSON with a short `value`. */
const paddedText = (size: number) => {
  const head = '{"value":"pad","title":"pad","x":"';
  return `${head}${'a'.repeat(size - head.length - 2)}"}`;
};
const wrapBytes = (bytes: Uint8Array) =>
  Buffer.concat([Buffer.from('{"value":"'), bytes, Buffer.from('","title":"'), bytes, Buffer.from('"}')]);
const bodyArb: fc.Arbitrary<string | Buffer> = fc.oneof(
  { weight: 10, arbitrary: objectText },
  { weight: 2, arbitrary: fc.json({ maxDepth: 4 }) },
  { weight: 2, arbitrary: brokenText },
  { weight: 1, arbitrary: deepText },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 40 }).map(wrapBytes) },
  { weight: 1, arbitrary: fc.integer({ min: 16 * 1024 - 8, max: 48 * 1024 }).map(paddedText) },
);
/** A write to a real or unknown record, of either resource. */
const writeTarget = fc.oneof(
  resourceArb.map((r) => ({ method: 'POST', path: `/api/v1/${r.singular}` })),
  fc.tuple(resourceArb, fc.oneof({ weight: 3, arbitrary: seededId }, fc.uuid())).map(([r, id]) => ({
    method: 'PUT',
    path: `/api/v1/${r.singular}/${id}`,
  })),
);

// ---- Properties ----

describe('hostile input, on the memory store', () => {
  it(
    'answers any method on any path in the envelope, and 401 to an operation without the right key',
    async () => {
      const body = JSON.stringify({ value: 'Texto de P1', title: 'Texto de P1' });
      const anyCall = fc.oneof(fc.tuple(methodArb, hostilePath), operationCall);
      await fc.assert(
        fc.asyncProperty(anyCall, keyArb, fc.boolean(), async ([method, path], keyHeader, withBody) => {
          fc.pre(method !== 'HEAD' || !parserRefuses(path)); // A known gap, pinned in its own test below.
          const headers: OutgoingHttpHeaders = keyHeader === undefined ? {} : { key: keyHeader };
          const call = withBody
            ? { method, path, headers: { ...headers, 'content-type': 'application/json' }, body }
            : { method, path, headers };
          const answer = await exchange(call);
          if (keyIsRight(keyHeader)) expect(answer.status).not.toBe(401);
          const guarded = operationOf(method, path) !== undefined && decodes(path) && !parserRefuses(path);
          if (guarded && !keyIsRight(keyHeader)) expect(answer.status).toBe(401);
        }),
        runs(1000, 1),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers any headers (KEY, media type, charset, encoding, request id) in the envelope',
    async () => {
      const bodies = [undefined, '{"value":"Texto de P2","title":"Texto de P2"}', '{"value":1}', '{', ''];
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...standardMethods),
          fc.oneof({ weight: 4, arbitrary: routePath }, otherPath),
          headersArb,
          fc.constantFrom(...bodies),
          async (method, path, headers, body) => {
            fc.pre(method !== 'HEAD' || !parserRefuses(path)); // A known gap, pinned in its own test below.
            await exchange({ method, path, headers, body });
          },
        ),
        runs(800, 2),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers any body to a create or an update in the envelope, and pollutes no prototype',
    async () => {
      const contentType = fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, contentTypeArb);
      await fc.assert(
        fc.asyncProperty(writeTarget, contentType, bodyArb, async ({ method, path }, type, body) => {
          await exchange({ method, path, headers: { key, 'content-type': type }, body });
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        }),
        runs(1200, 3),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

// ---- Raw bytes ----

// HEAD is left out of the raw properties: its known gap has its own test below.
const rawMethod = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS');
const asciiRoutePath = routePath.filter((path) => !parserRefuses(path));
const rawFragment = fc.oneof(
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
const headerLine = fc
  .tuple(fc.uint8Array({ maxLength: 20 }), fc.uint8Array({ maxLength: 60 }))
  .map(([name, value]) => Buffer.concat([name, Buffer.from(': '), value, Buffer.from('\r\n')]));
const rawTarget = fc.oneof(
  { weight: 3, arbitrary: asciiRoutePath.map((path) => Buffer.from(path)) },
  fc.uint8Array({ minLength: 1, maxLength: 40 }).map((bytes) => Buffer.concat([Buffer.from('/'), bytes])),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }).map((text) => Buffer.from(`/api/v1/scale/${text}`)),
);

describe('hostile bytes, on the memory store', () => {
  it(
    'answers any bytes after a valid request line in the envelope',
    async () => {
      await fc.assert(
        fc.asyncProperty(rawMethod, asciiRoutePath, fc.array(rawFragment, { maxLength: 8 }), fc.boolean(), async (method, path, rest, ended) => {
          const bytes = `${method} ${path} HTTP/1.1\r\nHost: x\r\n${rest.join('')}${ended ? '\r\n\r\n' : ''}`;
          await exchangeRaw(Buffer.from(bytes, 'latin1'), method, path);
        }),
        runs(400, 4),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers any bytes in the target and the header lines in the envelope',
    async () => {
      await fc.assert(
        fc.asyncProperty(rawMethod, rawTarget, fc.array(headerLine, { maxLength: 3 }), async (method, target, lines) => {
          const head = Buffer.concat([Buffer.from(`${method} `), target, Buffer.from(' HTTP/1.1\r\nHost: x\r\n')]);
          const tail = Buffer.from(`KEY: ${key}\r\nConnection: close\r\n\r\n`);
          await exchangeRaw(Buffer.concat([head, ...lines, tail]), method, target.toString('latin1'));
        }),
        runs(400, 5),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

// ---- Known gaps: requests Node answers, or fails to answer, outside the app ----
// Left out of the properties above so that those keep searching; each fails until fixed.

describe('requests answered outside the app, on the memory store', () => {
  it(
    'answers a request whose Expect header it cannot meet in the envelope',
    async () => {
      const expectation = fc
        .oneof(fc.constantFrom('foo', '100-continue-x', '', '200-ok'), headerValue)
        .filter((value) => value.trim().toLowerCase() !== '100-continue');
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...standardMethods), asciiRoutePath, expectation, async (method, path, value) => {
          await exchange({ method, path, headers: { key, expect: value } });
        }),
        runs(30, 6),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers an HTTP/1.1 request without Host in the envelope',
    async () => {
      await fc.assert(
        fc.asyncProperty(rawMethod, asciiRoutePath, async (method, path) => {
          await exchangeRaw(Buffer.from(`${method} ${path} HTTP/1.1\r\nKEY: ${key}\r\n\r\n`), method, path);
        }),
        runs(30, 7),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers CONNECT in the envelope instead of dropping the connection',
    async () => {
      const target = fc.oneof(asciiRoutePath, fc.constantFrom('127.0.0.1:22', 'localhost:80', 'example.com:443'));
      await fc.assert(
        fc.asyncProperty(target, async (path) => {
          await exchangeRaw(Buffer.from(`CONNECT ${path} HTTP/1.1\r\nHost: x\r\nKEY: ${key}\r\n\r\n`), 'CONNECT', path);
        }),
        runs(20, 8),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers a HEAD whose target the parser refuses without a body',
    async () => {
      const refused = fc.oneof(
        fc.tuple(asciiRoutePath, fc.constantFrom('é', 'ÿ', '¤')).map(([path, latin1]) => path + latin1),
        asciiRoutePath.map((path) => path.slice(1)),
      );
      await fc.assert(
        fc.asyncProperty(refused, async (path) => {
          await exchangeRaw(Buffer.from(`HEAD ${path} HTTP/1.1\r\nHost: x\r\n\r\n`, 'latin1'), 'HEAD', path);
        }),
        runs(30, 9),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers a request once, even when its body turns out unreadable after the answer',
    async () => {
      const malformedChunk = fc.constantFrom('zz\r\n', '5\r\nab', '-1\r\n', '0x5\r\nabcde\r\n');
      await fc.assert(
        fc.asyncProperty(rawMethod, asciiRoutePath, malformedChunk, async (method, path, chunk) => {
          const bytes = `${method} ${path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${chunk}`;
          const answer = await sendRaw(service.url, bytes);
          expect(answer.text, `${method} ${path} drew a second answer`).not.toContain('HTTP/1.1 ');
          await exchangeRaw(Buffer.from(bytes), method, path);
        }),
        runs(30, 10),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
