import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumIsRequired, chromiumPath, hasChromium, launchChromium, runApp, watchPage, type AppProcess, type PageWatch } from '@workplan/testing';
import { type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { describe, it } from 'vitest';

// Test-only (left out of the build): the app as `pnpm start` runs it, and the API as the
// browser tests check it, beside what the console shows.

const main = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
export const consoleKey = 'console-test-key-0123456789';
/** A colleague's key, named as history shows its writes. */
export const colleagueKey = 'colleague-test-key-0123456789';
export const colleagueName = 'Ana';

/** The built app on memory storage, in a scratch directory; a small page maximum unless `settings` say another, so exports walk several pages. */
export function runConsoleApp(settings: Readonly<Record<string, string>> = {}): AppProcess {
  const keys = `${consoleKey} name=Operador,${colleagueKey} name=${colleagueName}`;
  const env = { PORT: '0', HOST: '127.0.0.1', API_KEYS: keys, STORAGE: 'memory', LIST_MAX_LIMIT: '20', LOG_LEVEL: 'warn', ...settings };
  return runApp(main, env, { cwd: mkdtempSync(join(tmpdir(), 'workplan-console-')) });
}

export interface ApiRecord {
  readonly id: string;
  readonly value?: string;
  readonly title?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The API's own answers, read beside the page (with the console's key unless told): what the console shows must be what is stored. */
export function apiOf(url: string, key = consoleKey) {
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { KEY: key };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { response, json: (await response.json()) as { data?: unknown; error?: { issues?: { message: string }[] } } };
  };
  return {
    call,
    /** Every record, following `Link: rel="next"` from the first page. */
    all: async (plural: 'scales' | 'costCenters'): Promise<ApiRecord[]> => {
      const records: ApiRecord[] = [];
      let path: string | undefined = `/api/v1/${plural}`;
      while (path !== undefined) {
        const { response, json } = await call('GET', path);
        records.push(...(json.data as ApiRecord[]));
        path = /<([^>]+)>;\s*rel="next"/u.exec(response.headers.get('link') ?? '')?.[1];
      }
      return records;
    },
    create: async (singular: 'scale' | 'costCenter', text: string): Promise<ApiRecord> => {
      const { json } = await call('POST', `/api/v1/${singular}`, singular === 'scale' ? { value: text } : { title: text });
      return json.data as ApiRecord;
    },
    /** The service's sentence for a text that breaks a rule, as the API answers it. */
    issueOf: async (text: string): Promise<string> => {
      const { json } = await call('POST', '/api/v1/scale', { value: text });
      return json.error?.issues?.[0]?.message ?? '';
    },
  };
}

/**
 * Whether `url` is one of a list's own reads, and not the console's look for the record
 * written last, which it makes once per page load to know where to follow the changes from
 * (packages/console/src/web/live-changes.ts).
 */
export function isListRead(url: URL): boolean {
  return !(url.searchParams.get('sort') === '-updatedAt' && /\/0\/1$/u.test(url.pathname) && !url.searchParams.has('count'));
}

/** Signs in as an operator would: the key in its field, then "Entrar". */
export async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/`);
  await page.getByLabel('Chave de API').fill(consoleKey);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('navigation', { name: 'Cadastros' }).waitFor();
}

/** Presses Tab until the focused control is the one named `name`, as a keyboard user moves through the page. */
export async function tabTo(page: Page, name: string): Promise<void> {
  for (let presses = 0; presses < 80; presses += 1) {
    await page.keyboard.press('Tab');
    if ((await focusedName(page)) === name) return;
  }
  throw new Error(`Tab never reached "${name}"`);
}

/** What has the keyboard focus, by its name as a person hears it: its aria-label, label or text; BODY when nothing has it. */
export function focusedName(page: Page): Promise<string> {
  return page.evaluate(
    'document.activeElement === document.body ? "BODY" : document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.labels?.[0]?.textContent ?? document.activeElement?.textContent ?? ""',
  );
}

/** The data rows of the table named `name` (its caption): the rows of its second row group, after the header's. */
export function rowsOf(page: Page, name: string) {
  return page.getByRole('table', { name, exact: true }).getByRole('rowgroup').nth(1).getByRole('row');
}

/**
 * A date of the service as the console shows it, computed by hand (not by the Intl the page
 * uses) for a zone `offsetHours` from UTC without summer time: "02/12/2026 03:19", and with
 * the seconds as a CSV export writes it.
 */
export function brazilianDate(iso: string, offsetHours: number, seconds = false): string {
  const local = new Date(Date.parse(iso) + offsetHours * 3_600_000);
  const two = (value: number) => String(value).padStart(2, '0');
  const date = `${two(local.getUTCDate())}/${two(local.getUTCMonth() + 1)}/${String(local.getUTCFullYear())}`;
  return `${date} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}${seconds ? `:${two(local.getUTCSeconds())}` : ''}`;
}

/** The text of the `column`-th cell (from 0) of each data row of the table named `name`, read in one go. */
export function columnOf(page: Page, name: string, column: number): Promise<string[]> {
  return rowsOf(page, name).evaluateAll(
    (rows: readonly { readonly children: ArrayLike<{ readonly textContent: string | null }> }[], at: number) => rows.map((row) => row.children[at]?.textContent ?? ''),
    column,
  );
}

// Run in the page, whose DOM this package's types (no DOM library) do not describe.
interface Rect {
  readonly width: number;
  readonly top: number;
}
interface TextRange {
  selectNodeContents(node: unknown): void;
  getClientRects(): Iterable<Rect>;
}

/** How many lines of the screen the text of each element `locator` finds takes. */
export function linesOf(locator: Locator): Promise<number[]> {
  return locator.evaluateAll((elements: readonly { readonly ownerDocument: { createRange(): TextRange } }[]) =>
    elements.map((element) => {
      const range = element.ownerDocument.createRange();
      range.selectNodeContents(element);
      return new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top))).size;
    }),
  );
}

/** The CSS `property` (`border-top-width`) of each element `locator` finds, as the browser computed it. */
export function computedStyles(locator: Locator, property: string): Promise<string[]> {
  return locator.evaluateAll((elements: readonly unknown[], name: string) => {
    const { getComputedStyle } = globalThis as unknown as { getComputedStyle: (element: unknown) => { getPropertyValue(name: string): string } };
    return elements.map((element) => getComputedStyle(element).getPropertyValue(name));
  }, property);
}

/** A browser for the console's tests: a Brazilian locale and time zone, and every tab watched. */
export interface ConsoleBrowser {
  readonly browser: Browser;
  readonly context: BrowserContext;
  /** What each tab did that it must not: other origins, errors, CSP violations. */
  readonly watches: PageWatch[];
  /** A tab of its own (its own sessionStorage), watched. */
  newTab(): Promise<Page>;
}

/** Where the browser is: a Brazilian clerk's language and time zone unless told. */
export interface BrowserPlace {
  readonly locale: string;
  readonly timezoneId: string;
}

export async function openConsoleBrowser(url: string, place: BrowserPlace = { locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' }): Promise<ConsoleBrowser> {
  const browser = await launchChromium();
  const context = await browser.newContext({ ...place, viewport: { width: 1280, height: 900 } });
  const watches: PageWatch[] = [];
  return {
    browser,
    context,
    watches,
    newTab: async () => {
      const tab = await context.newPage();
      watches.push(await watchPage(tab, url));
      return tab;
    },
  };
}

/** The built app, with a browser and a tab on it: what a file of browser tests opens once. */
export interface OpenedConsole {
  readonly url: string;
  readonly api: ReturnType<typeof apiOf>;
  readonly session: ConsoleBrowser;
  readonly page: Page;
  close(): Promise<void>;
}

export async function openConsole(place?: BrowserPlace, settings?: Readonly<Record<string, string>>): Promise<OpenedConsole> {
  const app = runConsoleApp(settings);
  const url = await app.listening();
  const session = await openConsoleBrowser(url, place);
  return {
    url,
    api: apiOf(url),
    session,
    page: await session.newTab(),
    close: async () => {
      await session.browser.close();
      await app.stop();
    },
  };
}

/** Declares `tests` to run in Chromium; without one, a test in their place says so, and fails under CI=true. */
export function describeInChromium(name: string, tests: () => void): void {
  describe(name, { timeout: 30_000 }, () => {
    it.runIf(chromiumIsRequired)('has a Chromium to run in (CI=true)', () => {
      throw new Error(`${chromiumPath} is missing: apt-get install -y chromium`);
    });
    describe.runIf(hasChromium)('as an operator', tests);
  });
}
