import { expectAccessible, warnWithoutChromium, withAxe } from '@workplan/testing';
import { type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { computedStyles, describeInChromium, linesOf, openConsole, rowsOf, signIn, type OpenedConsole } from './testing/console-session.js';

// The page as a clerk works in it all day, in Debian's Chromium: the list in view on a
// laptop's screen (1366x768) and a phone's (360 px), an address that cannot be read, and
// the live updates said when they stop and when they resume.

warnWithoutChromium('console-page.test.ts', 'the operator console\'s page layout');

const LAPTOP = { width: 1366, height: 768 } as const;
const PHONE = { width: 360, height: 780 } as const;

describeInChromium('the console\'s page, in Chromium', () => {
  let opened: OpenedConsole;
  let page: Page;

  beforeAll(async () => {
    opened = await openConsole();
    page = opened.page;
    for (let n = 1; n <= 12; n += 1) await opened.api.create('costCenter', `Centro de custo ${String(n).padStart(2, '0')}`);
    await withAxe(page);
    await signIn(page, opened.url);
  }, 60_000);

  afterEach(async () => {
    await page.unroute('**/api/v1/changes**');
    for (const watch of opened.session.watches) expect(watch).toEqual({ offsite: [], errors: [], policyViolations: [] });
  });

  afterAll(async () => {
    await opened.close();
  });

  const costCenters = () => rowsOf(page, 'Centros de custo');
  const openCostCenters = async () => {
    await page.goto('about:blank');
    await page.goto(`${opened.url}/console/#/centros-de-custo`);
    await expect.poll(() => costCenters().count()).toBe(10);
  };
  it('shows 10 rows above the fold at 1366x768, each date on one line, and actions lighter than the data', async () => {
    await page.setViewportSize(LAPTOP);
    await openCostCenters();
    const tenth = await costCenters().nth(9).boundingBox();
    expect(await page.evaluate('scrollY')).toBe(0);
    expect((tenth?.y ?? Infinity) + (tenth?.height ?? 0)).toBeLessThanOrEqual(LAPTOP.height);
    const dates = await linesOf(page.locator('table.records time'));
    expect(dates).toHaveLength(20);
    expect(dates.every((lines) => lines === 1)).toBe(true);

    // A row is a line of text, its actions narrower than its two dates, and unframed.
    const row = costCenters().first();
    const [text, created, updated, actions] = await Promise.all([0, 1, 2, 3].map((n) => row.getByRole('cell').nth(n).boundingBox()));
    const [lineHeight = ''] = await computedStyles(row.getByRole('cell').first(), 'line-height');
    expect(text?.height ?? Infinity).toBeLessThan(2 * parseFloat(lineHeight));
    expect(actions?.width ?? Infinity).toBeLessThan((created?.width ?? 0) + (updated?.width ?? 0));
    const buttons = row.getByRole('button');
    expect(await buttons.count()).toBe(3);
    expect(await computedStyles(buttons, 'border-top-width')).toEqual(['0px', '0px', '0px']);
    expect(await computedStyles(buttons, 'background-color')).toEqual(['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']);
    await expectAccessible(page, 'the list at 1366x768');
  });

  it('keeps each date on one line at 360 px, the actions reachable by name and by keyboard, nothing wider than the screen', async () => {
    await page.setViewportSize(PHONE);
    await openCostCenters();
    expect((await linesOf(page.locator('table.records time'))).every((lines) => lines === 1)).toBe(true);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    // Newest first: the first row is the last one made.
    const edit = costCenters().first().getByRole('button', { name: 'Editar “Centro de custo 12”' });
    await edit.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('textbox', { name: 'Editar “Centro de custo 12”' }).waitFor();
    await page.keyboard.press('Escape');
    await expectAccessible(page, 'the list at 360 px');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('falls back to the list, saying so, when the address cannot be read', async () => {
    await page.goto('about:blank');
    await page.goto(`${opened.url}/console/#/centros-de-custo/%E0%A4%A`);
    await page.getByRole('heading', { level: 1, name: 'Centros de custo' }).waitFor();
    await expect.poll(() => costCenters().count()).toBe(10);
    await page.getByRole('alert').getByText('O endereço da página não pôde ser lido').waitFor();
    expect(new URL(page.url()).hash).toBe('#/centros-de-custo');
    // The afterEach finds no error thrown by the page.
  });

  it('says when live updates stop because the service is away, and again when they resume', async () => {
    await openCostCenters();
    const live = page.getByRole('status').filter({ hasText: /atualizações automáticas/iu });
    // The follower's long poll is held by the service: a change ends it, and the next read finds the service gone.
    await page.route('**/api/v1/changes**', (route) => route.abort('connectionrefused'));
    await opened.api.create('scale', 'Durante a queda');
    await live.getByText('Atualizações automáticas interrompidas', { exact: false }).waitFor({ timeout: 10_000 });
    await page.unroute('**/api/v1/changes**');
    await live.getByText('Atualizações automáticas retomadas', { exact: false }).waitFor({ timeout: 10_000 });
    // Following again: a colleague's record reaches the list without a reload.
    await opened.api.create('costCenter', 'Centro de custo 00');
    await page.getByRole('status').getByText('13 centros de custo', { exact: true }).waitFor({ timeout: 5_000 });
  });
});
