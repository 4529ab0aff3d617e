import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describedChanges } from '@workplan/adapter-express';
import { seedKinds } from '@workplan/core';
import { describe, expect, it } from 'vitest';
import { parseSubscriptions, readSubscriptionsFile, SubscriptionsError, urlWithoutSecrets } from './subscriptions.js';

const secret = (bytes = 32): string => `whsec_${randomBytes(bytes).toString('base64')}`;
const SOURCE = 'WEBHOOKS_FILE (hooks.json)';
// The API's resource words, as the service gives them.
const { resources } = describedChanges(seedKinds);

const parse = (document: unknown): ReturnType<typeof parseSubscriptions> => parseSubscriptions(JSON.stringify(document), SOURCE, resources);

/** The lines a refused document is told with. */
function problemsOf(document: unknown, text = JSON.stringify(document)): readonly string[] {
  try {
    parseSubscriptions(text, SOURCE, resources);
  } catch (error) {
    if (error instanceof SubscriptionsError) return error.problems;
    throw error;
  }
  throw new Error('the document was accepted');
}

describe('the subscriptions file', () => {
  it('reads each subscription, with every resource when it names none', () => {
    const folha = { name: 'folha', url: 'https://folha.example/hooks', secret: secret() };
    const ponto = { name: 'ponto', url: 'http://127.0.0.1:9000/in', secret: secret(24), resources: ['costCenter'] };
    expect(parse({ subscriptions: [folha, ponto] })).toEqual([
      { ...folha, resources: ['scale', 'costCenter'] },
      { ...ponto, resources: ['costCenter'] },
    ]);
  });

  it('takes a file with no subscription', () => {
    expect(parse({ subscriptions: [] })).toEqual([]);
  });

  it('tells each mistake in a line of its own, naming the file and the subscription', () => {
    const problems = problemsOf({
      subscriptions: [
        { name: 'folha', url: 'ftp://folha.example/', secret: secret(), extra: 1 },
        { name: 'ponto', url: 'https://ponto.example/', secret: 'whsec_c2hvcnQ=', resources: ['scale', 'shift'] },
        { name: 'Folha', url: 'https://outra.example/', secret: secret() },
      ],
    });
    expect(problems).toEqual([
      `${SOURCE}: subscription 1 ("folha"): unknown member "extra"`,
      `${SOURCE}: subscription 1 ("folha"): url must be an http or https URL, not "ftp://folha.example/"`,
      `${SOURCE}: subscription 2 ("ponto"): secret must be "whsec_" followed by the base64 of 24 to 64 random bytes`,
      `${SOURCE}: subscription 2 ("ponto"): unknown resource "shift": the resources are scale, costCenter`,
      `${SOURCE}: subscription 3 ("Folha"): the name is already used by subscription 1 (names compare regardless of case)`,
    ]);
  });

  it.each([
    ['no prefix', randomBytes(32).toString('base64')],
    ['too few bytes', secret(23)],
    ['too many bytes', secret(65)],
    ['not base64', 'whsec_!!!!notbase64!!!!notbase64!!!!'],
    ['base64 not in its canonical form', `whsec_${randomBytes(32).toString('base64url')}-_`],
    ['not a text', 42],
  ])('refuses a secret with %s, without showing it', (_case, bad) => {
    const [problem] = problemsOf({ subscriptions: [{ name: 'folha', url: 'https://folha.example/', secret: bad }] });
    expect(problem).toMatch(/secret must be "whsec_" followed by the base64 of 24 to 64 random bytes$/u);
    expect(problem).not.toContain(String(bad));
  });

  it('shows no part of a secret where the file is not JSON, nor a password in a URL it refuses', () => {
    const key = secret().slice('whsec_'.length);
    for (const text of [
      `{"subscriptions":[{"name":"a","url":"http://127.0.0.1:1/","secret":whsec_${key}}]}`,
      `{"subscriptions":[{"name":"a","url":"http://127.0.0.1:1/","secret":'whsec_${key}'}]}`,
      `whsec_${key}`,
    ]) {
      const [problem] = problemsOf(null, text);
      expect(problem).toMatch(/^WEBHOOKS_FILE \(hooks\.json\) is not JSON: /u);
      expect(problem).not.toContain(key.slice(0, 3));
    }
    expect(problemsOf(null, '{"subscriptions": [1,]}')).toEqual([`${SOURCE} is not JSON: Unexpected token ']'`]);
    expect(problemsOf({ subscriptions: [{ name: 'a', url: 'ftp://folha:p4ssw0rd@x/', secret: secret() }] })).toEqual([
      `${SOURCE}: subscription 1 ("a"): url must be an http or https URL, not "ftp://folha:***@x/"`,
    ]);
  });

  it('refuses what is not a subscriptions document', () => {
    expect(problemsOf(null, '{"subscriptions": [')).toEqual([expect.stringMatching(/^WEBHOOKS_FILE \(hooks\.json\) is not JSON: /u)]);
    expect(problemsOf([])).toEqual([`${SOURCE}: must be an object { "subscriptions": [...] }`]);
    expect(problemsOf({ subscriptions: {}, hooks: [] })).toEqual([`${SOURCE}: unknown member "hooks"`, `${SOURCE}: "subscriptions" must be an array`]);
    expect(problemsOf({ subscriptions: ['folha'] })).toEqual([
      `${SOURCE}: subscription 1: must be an object with name, url, secret and optional resources`,
    ]);
  });

  it('refuses a missing or blank name, a missing url and an empty list of resources', () => {
    expect(problemsOf({ subscriptions: [{ name: ' ', secret: secret(), resources: [] }] })).toEqual([
      `${SOURCE}: subscription 1 (" "): name must be a text of 1 to 100 characters, not blank, with no control characters`,
      `${SOURCE}: subscription 1 (" "): url must be an http or https URL, not missing`,
      `${SOURCE}: subscription 1 (" "): resources must be a list of scale, costCenter (leave it out for all)`,
    ]);
  });

  it('names a subscription whose name breaks a line in one line, and says why the name is refused', () => {
    expect(problemsOf({ subscriptions: [{ name: 'fo\nlha', url: 'https://folha.example/', secret: secret() }] })).toEqual([
      `${SOURCE}: subscription 1 ("fo\\nlha"): name must be a text of 1 to 100 characters, not blank, with no control characters`,
    ]);
  });

  it('reads the file at a path, and names it when it cannot', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'webhooks-'));
    const path = join(folder, 'hooks.json');
    await writeFile(path, JSON.stringify({ subscriptions: [{ name: 'folha', url: 'https://folha.example/', secret: secret() }] }));
    expect(await readSubscriptionsFile(path, resources)).toHaveLength(1);
    await expect(readSubscriptionsFile(join(folder, 'missing.json'), resources)).rejects.toThrow(
      new RegExp(`^WEBHOOKS_FILE \\(${join(folder, 'missing.json').replaceAll('/', '\\/')}\\) cannot be read: `, 'u'),
    );
  });
});

describe('a URL as a read key sees it', () => {
  it('keeps scheme, host, port and path, and drops a user-info (a token as user name too), the query and the fragment', () => {
    expect(urlWithoutSecrets('https://t0ken@folha.example:8443/entrada/?token=abc&lote=1#parte')).toBe('https://folha.example:8443/entrada/');
    expect(urlWithoutSecrets('http://user:***@127.0.0.1/')).toBe('http://127.0.0.1/');
    expect(urlWithoutSecrets('https://folha.example/entrada')).toBe('https://folha.example/entrada');
  });
});
