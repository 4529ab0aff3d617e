import { expectAccessible, warnWithoutChromium, withAxe } from '@workplan/testing';
import { type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { apiOf, brazilianDate, colleagueKey, colleagueName, describeInChromium, openConsole, rowsOf, signIn, type ApiRecord, type OpenedConsole } from './testing/console-session.js';

// What a colleague does, as the console shows it, in Debian's Chromium: a record's history
// from its row, and lists that read themselves again when a colleague writes, keeping the
// clerk's search, order, rows loaded, scroll and any edit in progress.

warnWithoutChromium('console-live.test.ts', 'the operator console\'s history and live lists');

interface ApiChange {
  readonly id: string;
  readonly action: string;
  readonly at: string;
  readonly by: string;
  readonly data: ApiRecord | null;
  readonly previous: ApiRecord | null;
}

describeInChromium('the console\'s history and live lists, in Chromium', () => {
  let opened: OpenedConsole;
  let page: Page;
  let colleague: ReturnType<typeof apiOf>;

  beforeAll(async () => {
    opened = await openConsole();
    page = opened.page;
    colleague = apiOf(opened.url, colleagueKey);
    await withAxe(page);
    await signIn(page, opened.url);
  }, 60_000);

  afterEach(() => {
    for (const watch of opened.session.watches) expect(watch).toEqual({ offsite: [], errors: [], policyViolations: [] });
  });

  afterAll(async () => {
    await opened.close();
  });

  const costCenters = () => rowsOf(page, 'Centros de custo');
  // Read in one go: rows read one by one may go while the list reads itself again.
  const shownTitles = () =>
    costCenters().evaluateAll((rows: readonly { querySelector(selector: string): { readonly textContent: string | null } | null }[]) =>
      rows.map((row) => row.querySelector('[role="cell"]')?.textContent ?? ''),
    );
  const apiTitles = async (path: string) => ((await opened.api.call('GET', path)).json.data as ApiRecord[]).map((record) => record.title);
  const rename = (id: string, title: string) => colleague.call('PUT', `/api/v1/costCenter/${id}`, { title });
  const openList = async (hash: string) => {
    await page.goto('about:blank');
    await page.goto(`${opened.url}/console/${hash}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
  };
  // São Paulo, the browser's zone: three hours behind UTC all year.
  const when = (iso: string) => brazilianDate(iso, -3);

  it('shows a record\'s history from its row: who, when, and the text before and after each write', async () => {
    const record = await colleague.create('costCenter', 'Compras');
    await rename(record.id, 'Compras e Suprimentos');
    await opened.api.call('PUT', `/api/v1/costCenter/${record.id}`, { title: 'Suprimentos' });
    const history = (await opened.api.call('GET', `/api/v1/costCenter/${record.id}/history`)).json.data as ApiChange[];
    expect(history.map((change) => [change.action, change.by])).toEqual([['create', colleagueName], ['update', colleagueName], ['update', 'Operador']]);

    await openList(`#/centros-de-custo?q=${encodeURIComponent('Suprimentos')}`);
    const button = page.getByRole('button', { name: 'Histórico de “Suprimentos”' });
    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Histórico de “Suprimentos”' });
    const entries = dialog.getByRole('listitem');
    await expect.poll(() => entries.count()).toBe(3);
    const shown = (await entries.allInnerTexts()).map((text) => text.split('\n').filter((line) => line !== ''));
    const textOf = (version: ApiRecord | null) => (version === null ? '—' : `“${version.title ?? ''}”`);
    const actions: Record<string, string> = { create: 'Criação', update: 'Alteração', delete: 'Exclusão' };
    const expected = history.map((change) => [actions[change.action], 'Quando', when(change.at), 'Quem', change.by, 'Antes', textOf(change.previous), 'Depois', textOf(change.data)]);
    expect(shown).toEqual(expected);
    await expectAccessible(page, 'a record\'s history');
    await page.setViewportSize({ width: 360, height: 780 });
    const box = await dialog.boundingBox();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? Infinity) <= 360).toBe(true);
    await expectAccessible(page, 'a record\'s history at 360 px wide');
    await page.setViewportSize({ width: 1280, height: 900 });

    // The dialog takes the focus, Escape closes it, and the focus goes back to the row's button.
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Fechar');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate('document.activeElement?.getAttribute("aria-label")')).toBe('Histórico de “Suprimentos”');
  });

  it('adds a colleague\'s write to a history that is open', async () => {
    const record = await colleague.create('costCenter', 'Patrimônio');
    await openList(`#/centros-de-custo?q=${encodeURIComponent('Patrimônio')}`);
    await page.getByRole('button', { name: 'Histórico de “Patrimônio”' }).click();
    const entries = page.getByRole('dialog').getByRole('listitem');
    await expect.poll(() => entries.count()).toBe(1);
    await colleague.call('DELETE', `/api/v1/costCenter/${record.id}`);
    await expect.poll(() => entries.count(), { timeout: 5_000 }).toBe(2);
    expect(await entries.nth(1).innerText()).toMatch(/^Exclusão\n[\s\S]*Quem\nAna\n[\s\S]*Antes\n“Patrimônio”\nDepois\n—$/u);
    // The list has read itself again (none found now), yet the row and its dialog stay open
    // until the clerk closes it; then the row goes: the record is gone.
    await page.getByRole('status').getByText('0 centros de custo encontrados', { exact: true }).waitFor();
    expect(await entries.count()).toBe(2);
    await page.getByRole('button', { name: 'Fechar' }).click();
    await page.getByText('Nenhum registro contém o texto buscado.').waitFor();
  });

  it('shows a long history a page at a time, loads the next pages on request, and adds a write once the last is shown', async () => {
    const record = await colleague.create('costCenter', 'Garagem 0');
    for (let n = 1; n <= 44; n += 1) await rename(record.id, `Garagem ${String(n)}`);
    await openList(`#/centros-de-custo?q=${encodeURIComponent('Garagem 44')}`);
    await page.getByRole('button', { name: 'Histórico de “Garagem 44”' }).click();
    const dialog = page.getByRole('dialog', { name: 'Histórico de “Garagem 44”' });
    const entries = dialog.getByRole('listitem');
    await expect.poll(() => entries.count()).toBe(20);
    // A write while pages remain is on a later page: it does not jump the queue.
    await rename(record.id, 'Garagem 45');
    const more = dialog.getByRole('button', { name: 'Carregar mais alterações' });
    await more.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => entries.count()).toBe(40);
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Carregar mais alterações');
    await page.keyboard.press('Enter');
    await expect.poll(() => entries.count()).toBe(46);
    await more.waitFor({ state: 'detached' });
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Fechar');
    const afters = await dialog.locator('li dd:last-of-type').allInnerTexts();
    expect(afters).toEqual(Array.from({ length: 46 }, (_, n) => `“Garagem ${String(n)}”`));
    // Every page shown: a colleague's next write joins at once.
    await rename(record.id, 'Garagem 46');
    await expect.poll(() => entries.count(), { timeout: 5_000 }).toBe(47);
    expect(await entries.nth(46).innerText()).toMatch(/Depois\n“Garagem 46”$/u);
    await expectAccessible(page, 'a long history, every page shown');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('reads the list again when a colleague writes, keeping the search, the order, the rows loaded and the scroll', async () => {
    const made: ApiRecord[] = [];
    for (let n = 1; n <= 30; n += 1) made.push(await opened.api.create('costCenter', `Obra ${String(n).padStart(2, '0')}`));
    await page.setViewportSize({ width: 1280, height: 600 });
    await openList('#/centros-de-custo?q=obra&sort=-title');
    await expect.poll(() => costCenters().count()).toBe(10);
    await page.getByRole('button', { name: 'Carregar mais' }).click();
    await expect.poll(() => costCenters().count()).toBe(20);
    const anchor = costCenters().filter({ hasText: 'Obra 15' });
    await anchor.scrollIntoViewIfNeeded();
    const top = async () => (await anchor.boundingBox())?.y;
    const before = await top();
    const scrolled = await page.evaluate('scrollY');
    expect(scrolled).toBeGreaterThan(0);

    // Two new records sort above the row in view, one below it goes, one is renamed.
    const [gone, renamed] = [made[11], made[19]];
    if (gone === undefined || renamed === undefined) throw new Error('30 records were made');
    await colleague.create('costCenter', 'Obra 99');
    await colleague.create('costCenter', 'Obra 98');
    await colleague.call('DELETE', `/api/v1/costCenter/${gone.id}`);
    await rename(renamed.id, 'Obra 20 (ampliada)');

    const expected = await apiTitles('/api/v1/costCenters/0/20?q=obra&sort=-title');
    expect(expected).toContain('Obra 20 (ampliada)');
    await expect.poll(shownTitles, { timeout: 5_000 }).toEqual(expected);
    expect(await page.getByRole('searchbox', { name: 'Buscar' }).inputValue()).toBe('obra');
    expect(await page.getByRole('columnheader', { name: 'Título' }).getAttribute('aria-sort')).toBe('descending');
    await page.getByRole('status').getByText('31 centros de custo encontrados', { exact: true }).waitFor();
    // The row in view stays where it was on the screen: the page scrolled with what came above it.
    const after = await top();
    expect(before).toBeDefined();
    expect(Math.abs((after ?? Infinity) - (before ?? 0))).toBeLessThanOrEqual(2);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('keeps an edit in progress through a colleague\'s writes, and refuses its save if the colleague changed that record', async () => {
    const mine = await opened.api.create('costCenter', 'Frota leve');
    const other = await opened.api.create('costCenter', 'Frota pesada');
    await openList(`#/centros-de-custo?q=frota`);
    await page.getByRole('button', { name: 'Editar “Frota leve”' }).click();
    const field = page.getByRole('textbox', { name: 'Editar “Frota leve”' });
    await field.fill('Frota leve (minha)');

    await rename(other.id, 'Frota pesada (nova)');
    await costCenters().getByRole('cell', { name: 'Frota pesada (nova)', exact: true }).waitFor();
    // A rename that leaves the search: its row would go, but it is being edited, so it stays.
    await rename(mine.id, 'Veículos leves');
    await expect.poll(async () => (await opened.api.all('costCenters')).find((one) => one.id === mine.id)?.title).toBe('Veículos leves');
    await page.getByRole('status').getByText('1 centro de custo encontrado', { exact: true }).waitFor();
    expect(await field.inputValue()).toBe('Frota leve (minha)');
    expect(await page.evaluate('document.activeElement?.value')).toBe('Frota leve (minha)');

    await page.getByRole('button', { name: 'Salvar' }).click();
    const stale = page.getByRole('alert');
    await expect.poll(() => stale.innerText()).toContain('Outra pessoa alterou este registro');
    expect((await opened.api.all('costCenters')).find((one) => one.id === mine.id)?.title).toBe('Veículos leves');
    await page.getByRole('button', { name: 'Cancelar' }).click();
    // Closed, the edited row goes: the record no longer matches the search.
    await expect.poll(shownTitles, { timeout: 5_000 }).toEqual(['Frota pesada (nova)']);
  });

  it('shows a colleague\'s update of the record a link opened at once, and says so when it is deleted', async () => {
    const record = await opened.api.create('costCenter', 'Tesouraria');
    await openList(`#/centros-de-custo/${record.id}`);
    const openedRecord = page.getByRole('region', { name: 'Registro aberto' });
    await openedRecord.getByRole('cell', { name: 'Tesouraria', exact: true }).waitFor();
    await rename(record.id, 'Tesouraria central');
    await openedRecord.getByRole('cell', { name: 'Tesouraria central', exact: true }).waitFor({ timeout: 5_000 });
    await colleague.call('DELETE', `/api/v1/costCenter/${record.id}`);
    await openedRecord.getByRole('alert').getByText('Este registro não existe mais').waitFor({ timeout: 5_000 });
    expect(await openedRecord.getByRole('table').count()).toBe(0);
  });

  it('gives the focus to the list\'s heading when a colleague deletes the row that held it', async () => {
    const record = await opened.api.create('costCenter', 'Almoxarifado');
    await openList(`#/centros-de-custo?q=${encodeURIComponent('Almoxarifado')}`);
    await page.getByRole('button', { name: 'Editar “Almoxarifado”' }).focus();
    await colleague.call('DELETE', `/api/v1/costCenter/${record.id}`);
    await page.getByText('Nenhum registro contém o texto buscado.').waitFor();
    await expect.poll(() => page.evaluate('document.activeElement?.textContent'), { timeout: 5_000 }).toBe('Registros cadastrados');
  });

  it('follows the feed with long polls that the service holds, not a request every moment', async () => {
    const asked: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/v1/changes') asked.push(url);
    });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(asked.length).toBeLessThanOrEqual(1);
    await colleague.create('scale', 'Plantão 24x72');
    await expect.poll(() => asked.length).toBeGreaterThanOrEqual(1);
    expect(asked.every((url) => url.searchParams.get('wait') === '30' && url.searchParams.get('after') !== null)).toBe(true);
  });
});
