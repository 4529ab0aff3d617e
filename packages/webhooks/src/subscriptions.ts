import { readFile } from 'node:fs/promises';
import { SECRET_PREFIX } from './signature.js';

/**
 * The name a subscription is kept under in the ledger, and compared by for uniqueness: names
 * that differ only in case are one name, in the file, in logs and metrics, and in the ledger,
 * so a change of case alone keeps the subscription's place.
 */
export function ledgerNameOf(name: string): string {
  return name.toLowerCase();
}

/** Where the changes go: one entry of the subscriptions file. */
export interface Subscription {
  /** Unique in the file, in any case (`ledgerNameOf`); names the subscription in logs and metrics. */
  readonly name: string;
  readonly url: string;
  /** `whsec_` and the base64 of the signing key; never shown. */
  readonly secret: string;
  /** The resources whose changes it wants (all when the file names none). */
  readonly resources: readonly string[];
}

/** A subscriptions file that cannot be used; `problems` has one line per mistake, naming it. */
export class SubscriptionsError extends Error {
  override readonly name = 'SubscriptionsError';

  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

/** The signing key's size the specification asks for, in bytes. */
const KEY_BYTES = { min: 24, max: 64 } as const;
const MAX_NAME_LENGTH = 100;
const MEMBERS = new Set(['name', 'url', 'secret', 'resources']);

/**
 * Reads and checks the subscriptions file at `path`, whose subscriptions may ask for
 * `resources` (`ChangeWording.resources`); every line of a refusal names the file.
 */
export async function readSubscriptionsFile(path: string, resources: readonly string[], setting = 'WEBHOOKS_FILE'): Promise<Subscription[]> {
  const source = `${setting} (${path})`;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SubscriptionsError([`${source} cannot be read: ${error instanceof Error ? error.message : String(error)}`]);
  }
  return parseSubscriptions(text, source, resources);
}

/**
 * The subscriptions of a file's text, `{ "subscriptions": [ { name, url, secret,
 * resources? } ] }`; throws a `SubscriptionsError` with a line per mistake, each starting
 * with `source` and naming the entry (never showing a secret).
 */
export function parseSubscriptions(text: string, source: string, resources: readonly string[]): Subscription[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new SubscriptionsError([`${source} is not JSON: ${withoutExcerpt(error instanceof Error ? error.message : String(error))}`]);
  }
  const problems: string[] = [];
  const entries = entriesOf(document, (problem) => problems.push(`${source}: ${problem}`));
  const subscriptions: Subscription[] = [];
  const places = new Map<string, number>();
  entries.forEach((entry, index) => {
    const place = `subscription ${index + 1}`;
    // Quoted as JSON, so a name with a line break or a quote still makes one line.
    const named = isObject(entry) && typeof entry.name === 'string' ? `${place} (${JSON.stringify(entry.name)})` : place;
    const entryProblems: string[] = [];
    const subscription = subscriptionOf(entry, resources, (problem) => entryProblems.push(`${source}: ${named}: ${problem}`));
    problems.push(...entryProblems);
    if (subscription === undefined) return;
    const folded = ledgerNameOf(subscription.name);
    const first = places.get(folded);
    if (first !== undefined) problems.push(`${source}: ${named}: the name is already used by subscription ${first} (names compare regardless of case)`);
    else places.set(folded, index + 1);
    if (entryProblems.length === 0) subscriptions.push(subscription);
  });
  if (problems.length > 0) throw new SubscriptionsError(problems);
  return subscriptions;
}

/**
 * V8's JSON error without the excerpt of the text it may quote: where the mistake is next to
 * a secret (one left unquoted, say), the excerpt would show part of it.
 */
function withoutExcerpt(message: string): string {
  return message.replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/su, '');
}

function entriesOf(document: unknown, refuse: (problem: string) => void): unknown[] {
  if (!isObject(document)) {
    refuse('must be an object { "subscriptions": [...] }');
    return [];
  }
  for (const member of Object.keys(document)) if (member !== 'subscriptions') refuse(`unknown member "${member}"`);
  if (!Array.isArray(document.subscriptions)) {
    refuse('"subscriptions" must be an array');
    return [];
  }
  return document.subscriptions as unknown[];
}

/** The subscription `entry` describes, when its name is usable; each mistake told to `refuse`. */
function subscriptionOf(entry: unknown, known: readonly string[], refuse: (problem: string) => void): Subscription | undefined {
  if (!isObject(entry)) {
    refuse('must be an object with name, url, secret and optional resources');
    return undefined;
  }
  for (const member of Object.keys(entry)) if (!MEMBERS.has(member)) refuse(`unknown member "${member}"`);
  const name = nameOf(entry.name, refuse);
  const url = urlOf(entry.url, refuse);
  const secret = secretOf(entry.secret, refuse);
  const resources = resourcesOf(entry.resources, known, refuse);
  return name === undefined ? undefined : { name, url, secret, resources };
}

function nameOf(value: unknown, refuse: (problem: string) => void): string | undefined {
  if (typeof value === 'string' && value.trim() !== '' && value.length <= MAX_NAME_LENGTH && !/\p{Cc}/u.test(value)) return value;
  refuse(`name must be a text of 1 to ${MAX_NAME_LENGTH} characters, not blank, with no control characters`);
  return undefined;
}

function urlOf(value: unknown, refuse: (problem: string) => void): string {
  const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined;
  if (url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:')) return url.href;
  refuse(`url must be an http or https URL, not ${value === undefined ? 'missing' : JSON.stringify(typeof value === 'string' ? shownUrl(value) : value)}`);
  return '';
}

/** A URL as the operator may see it anywhere, the file's refusals too: a password in it is a secret too. */
export function shownUrl(url: string): string {
  if (!URL.canParse(url)) return url.replace(/:[^/@]*@/u, ':***@');
  const parsed = new URL(url);
  if (parsed.password === '') return url;
  parsed.password = '***';
  return parsed.href;
}

/**
 * A URL as a reader not trusted with secrets sees it (a `read` key): without its user-info,
 * query and fragment, where a receiver's token often rides; scheme, host, port and path stay.
 */
export function urlWithoutSecrets(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  parsed.search = '';
  parsed.hash = '';
  return parsed.href;
}

/** The secret as the specification writes it: `whsec_` and the canonical base64 of 24 to 64 bytes. */
function secretOf(value: unknown, refuse: (problem: string) => void): string {
  const encoded = typeof value === 'string' && value.startsWith(SECRET_PREFIX) ? value.slice(SECRET_PREFIX.length) : undefined;
  const key = encoded === undefined || !/^[A-Za-z0-9+/]*={0,2}$/u.test(encoded) ? undefined : Buffer.from(encoded, 'base64');
  const sound = key !== undefined && key.toString('base64') === encoded && key.length >= KEY_BYTES.min && key.length <= KEY_BYTES.max;
  if (sound) return value as string;
  refuse(`secret must be "${SECRET_PREFIX}" followed by the base64 of ${KEY_BYTES.min} to ${KEY_BYTES.max} random bytes`);
  return '';
}

function resourcesOf(value: unknown, known: readonly string[], refuse: (problem: string) => void): string[] {
  if (value === undefined) return [...known];
  if (!Array.isArray(value) || value.length === 0) {
    refuse(`resources must be a list of ${known.join(', ')} (leave it out for all)`);
    return [];
  }
  for (const word of value as unknown[]) {
    if (!known.includes(word as string)) refuse(`unknown resource ${JSON.stringify(word)}: the resources are ${known.join(', ')}`);
  }
  return known.filter((word) => (value as unknown[]).includes(word));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
