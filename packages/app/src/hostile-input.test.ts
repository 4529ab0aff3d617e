import { type OutgoingHttpHeaders } from 'node:http';
import {
  contentTypeArb,
  contractResources,
  expectContractAnswer,
  firstAnswer,
  headerLine,
  headerValue,
  hostileBodies,
  hostileHeaders,
  hostileTargets,
  keyHeaders,
  methodArb,
  operationOf,
  otherPath,
  parserRefuses,
  rawFragments,
  rawMethod,
  rawTargets,
  send,
  sendRaw,
  standardMethods,
  storedRecords,
  type HttpAnswer,
  type HttpCall,
  type KeyHeader,
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

// ---- Arbitraries: methods, paths, headers, bodies (from @workplan/testing) ----

const { routePath, hostilePath, operationCall, asciiRoutePath, writeTarget } = hostileTargets(seededIds);
const keyArb = keyHeaders(key);
const headersArb = hostileHeaders(keyArb);
const bodyArb = hostileBodies(seededTexts);

/** Node trims the optional white space around a header value, nothing else. */
const keyIsRight = (sent: KeyHeader) => typeof sent === 'string' && sent.replace(/^[ \t]+|[ \t]+$/gu, '') === key;
const decodes = (path: string) => {
  try {
    decodeURIComponent(path.split(/[?#]/u)[0] ?? '');
    return true;
  } catch {
    return false; // Malformed percent-encoding is refused before the key is read.
  }
};

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

const rawFragment = rawFragments(key);
const rawTarget = rawTargets(asciiRoutePath);

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
