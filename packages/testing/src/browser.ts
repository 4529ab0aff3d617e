import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { chromiumPath, hasChromium, HOW_TO_GET_CHROMIUM, NO_CHROMIUM_MARK } from './chromium.js';

export { chromiumPath, hasChromium } from './chromium.js';

const inCi = process.env.CI === 'true';

/**
 * Says loudly, once per test file, that its browser tests will not run; the file then
 * declares `chromiumIsRequired` as a test, which fails under CI=true.
 */
export function warnWithoutChromium(testFile: string, what: string): void {
  if (hasChromium) return;
  const line = '!'.repeat(78);
  console.warn(
    [
      line,
      `!!  ${testFile} ${NO_CHROMIUM_MARK}: ${chromiumPath} is missing, so ${what} is NOT tested in a browser.`,
      `!!  ${HOW_TO_GET_CHROMIUM}`,
      `!!  ${inCi ? 'CI=true: this is a FAILURE.' : 'Skipping (outside CI). In CI (CI=true) this fails.'}`,
      line,
    ].join('\n'),
  );
}

/** True where a missing Chromium must fail the run: run a test that throws when it is. */
export const chromiumIsRequired = !hasChromium && inCi;

/** Headless Chromium, offline: no first-run, sync, component or background requests of its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** What a page did that it must not: ask another origin, throw, or break its Content-Security-Policy. */
export interface PageWatch {
  readonly offsite: string[];
  readonly errors: string[];
  readonly policyViolations: string[];
}

/** Refuses and records every request of `page` outside `origin`, and records its errors and CSP violations. */
export async function watchPage(page: Page, origin: string): Promise<PageWatch> {
  const watch: PageWatch = { offsite: [], errors: [], policyViolations: [] };
  page.on('pageerror', (error) => watch.errors.push(error.message));
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/iu.test(message.text())) watch.policyViolations.push(message.text());
  });
  await page.route('**/*', async (route) => {
    const asked = route.request().url();
    if (asked.startsWith(`${origin}/`) || asked.startsWith('blob:')) return route.fallback();
    watch.offsite.push(asked);
    return route.abort();
  });
  return watch;
}

const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * Loads axe-core into every document `page` opens. An init script runs outside the page's
 * Content-Security-Policy, which (rightly) refuses an inline script tag.
 */
export async function withAxe(page: Page): Promise<void> {
  await page.addInitScript({ path: axeSource });
}

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly unknown[] }[];
}

/** Runs axe-core (WCAG 2.x A and AA rules, and its best practices) on the page as it is: no serious or critical violation. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const violations = await page.evaluate(async () => {
    // This runs in the page, whose globals this package (no DOM types) does not describe.
    const { axe, document } = globalThis as unknown as {
      axe?: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> };
      document: unknown;
    };
    if (axe === undefined) throw new Error('axe-core is not loaded: call withAxe(page) before the page opens');
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map(({ target }) => ({ target })) }));
  });
  const grave = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact ?? ''} ${violation.id}: ${violation.help} at ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`);
  expect(grave, `axe-core on the screen "${screen}"`).toEqual([]);
}
