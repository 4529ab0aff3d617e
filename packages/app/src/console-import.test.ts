import { expectAccessible, warnWithoutChromium, withAxe } from '@workplan/testing';
import { type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { columnOf, computedStyles, describeInChromium, linesOf, openConsole, rowsOf, signIn, type OpenedConsole } from './testing/console-session.js';

// An import as a clerk runs it, in Debian's Chromium: a report that stays readable whatever
// the values, and an import that outlives the clerk's clicks on the other tab.

warnWithoutChromium('console-import.test.ts', 'the operator console\'s imports');

describeInChromium('the console\'s imports, in Chromium', () => {
  let opened: OpenedConsole;
  let page: Page;

  beforeAll(async () => {
    opened = await openConsole();
    page = opened.page;
    await withAxe(page);
    await signIn(page, opened.url);
  }, 60_000);

  afterEach(async () => {
    await page.unroute('**/api/v1/costCenter');
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const watch of opened.session.watches) expect(watch).toEqual({ offsite: [], errors: [], policyViolations: [] });
  });

  afterAll(async () => {
    await opened.close();
  });

  const openTab = async (hash: string, heading: string) => {
    await page.goto('about:blank');
    await page.goto(`${opened.url}/console/#/${hash}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  };
  const report = () => page.getByRole('region', { name: 'Relatório da importação' });
  const importFile = (lines: readonly string[]) => page.getByLabel('Importar CSV').setInputFiles({ name: 'valores.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n')) });
  it('keeps the report\'s narrow columns readable beside a long value, which wraps in its cell, whole', async () => {
    const unbroken = 'x'.repeat(201);
    const spaced = Array.from({ length: 30 }, (_, n) => `palavra${String(n)}`).join(' ');
    await page.setViewportSize({ width: 1366, height: 768 });
    await openTab('escalas', 'Escalas de trabalho');
    await importFile(['12x36', unbroken, spaced, '6x1']);
    await page.getByRole('button', { name: 'Importar 4 linhas' }).click();
    await report().getByRole('status').waitFor();
    await expect.poll(() => rowsOf(page, 'Relatório da importação').count()).toBe(4);
    const table = 'table.report-table';
    expect(await linesOf(page.locator(`${table} th`))).toEqual([1, 1, 1, 1]);
    // The line and the outcome of every row on one line; the reason has room for its words.
    expect(await linesOf(page.locator(`${table} td:nth-child(1), ${table} td:nth-child(3)`))).toEqual(Array.from({ length: 8 }, () => 1));
    const reason = page.locator(`${table} th:nth-child(4)`);
    const [fontSize = ''] = await computedStyles(reason, 'font-size');
    expect((await reason.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(14 * parseFloat(fontSize));
    expect(await columnOf(page, 'Relatório da importação', 1)).toEqual(['12x36', unbroken, spaced, '6x1']);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1366);
    await page.setViewportSize({ width: 360, height: 780 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await expectAccessible(page, 'an import report with long values at 360 px');
  });

  it('keeps a 2,000-row import in view across a change of tab, and offers no second import until it ends (by its cancel here)', async () => {
    const values = Array.from({ length: 2000 }, (_, n) => `Lote ${String(n + 1).padStart(4, '0')}`);
    // The creates go through while the test lets them (`admitted`), so the import is still
    // running when the clerk changes tab and when the cancel is clicked, however fast or slow
    // the machine; the others wait in the route.
    let admitted = 5;
    let sent = 0;
    const released: (() => void)[] = [];
    const admit = (count: number) => {
      admitted = count;
      for (const release of released.splice(0)) release();
    };
    await page.route('**/api/v1/costCenter', async (route) => {
      sent += 1;
      const mine = sent;
      while (mine > admitted) await new Promise<void>((resolve) => released.push(resolve));
      await route.fallback();
    });
    await openTab('centros-de-custo', 'Centros de custo');
    await importFile(values);
    await page.getByRole('button', { name: 'Importar 2.000 linhas' }).click();
    const progress = page.getByRole('progressbar', { name: /^Importando/u });
    await expect.poll(async () => Number(await progress.getAttribute('value'))).toBe(5);

    await page.getByRole('link', { name: 'Escalas de trabalho' }).click();
    await page.getByRole('heading', { level: 1, name: 'Escalas de trabalho' }).waitFor();
    expect(Number(await progress.getAttribute('value'))).toBe(5);
    expect(await page.getByLabel('Importar CSV').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Cancelar importação' }).waitFor();
    admit(10);

    await page.getByRole('link', { name: 'Centros de custo' }).click();
    await page.getByRole('heading', { level: 1, name: 'Centros de custo' }).waitFor();
    await expect.poll(async () => Number(await progress.getAttribute('value'))).toBe(10);
    expect(await page.getByLabel('Importar CSV').isDisabled()).toBe(true);
    // Seen through the change of tab, the import ends by its cancel: its report stays, with every row.
    // The 11th row, sent and held, is answered once let through; none after it is sent.
    await page.getByRole('button', { name: 'Cancelar importação' }).click();
    await page.getByRole('button', { name: 'Cancelar importação' }).and(page.locator(':disabled')).waitFor();
    admit(Infinity);
    await report().waitFor();
    expect(await progress.count()).toBe(0);
    const outcomes = await columnOf(page, 'Relatório da importação', 2);
    expect(outcomes).toEqual(Array.from(values, (_, n) => (n < 11 ? 'Criado' : 'Não enviado')));
    expect(await page.getByLabel('Importar CSV').isDisabled()).toBe(false);
    expect((await opened.api.all('costCenters')).filter((record) => record.title?.startsWith('Lote '))).toHaveLength(11);
  }, 90_000);
});
