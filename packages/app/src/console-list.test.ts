import { expectAccessible, warnWithoutChromium, withAxe } from '@workplan/testing';
import { type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeInChromium, isListRead, openConsole, rowsOf, signIn, type OpenedConsole } from './testing/console-session.js';

// The console's list for a clerk's whole day, in Debian's Chromium: a search as you type,
// columns that order it, the total, "Carregar mais" along the API's cursor, and all of it
// kept in the page's address. Every list shown is checked against the API's own answer.

warnWithoutChromium('console-list.test.ts', 'the operator console\'s search, order and count');

const COST_CENTERS = 1234;
const MAINTENANCE = ['Manutenção Elétrica', 'manutenção predial', 'Manutencao hidráulica'];

describeInChromium('the console\'s list: search, order, count and more pages, in Chromium', () => {
  let opened: OpenedConsole;
  let page: Page;
  /** The list paths the page asked for, with their query. */
  let asked: URL[] = [];

  beforeAll(async () => {
    // A page maximum over the console's largest page size: every size it has is offered.
    opened = await openConsole(undefined, { LIST_MAX_LIMIT: '100' });
    page = opened.page;
    const titles = Array.from({ length: COST_CENTERS - MAINTENANCE.length }, (_, n) => `Centro ${String(n + 1).padStart(4, '0')}`);
    titles.splice(500, 0, ...MAINTENANCE);
    for (let at = 0; at < titles.length; at += 50) await Promise.all(titles.slice(at, at + 50).map((title) => opened.api.create('costCenter', title)));
    await opened.api.create('scale', '12x36');
    await withAxe(page);
    page.on('request', (request) => {
      const asking = new URL(request.url());
      if (/^\/api\/v1\/(?:costCenters|scales)\b/u.test(asking.pathname) && isListRead(asking)) asked.push(asking);
    });
    await signIn(page, opened.url);
  }, 120_000);

  afterEach(() => {
    asked = [];
    for (const watch of opened.session.watches) expect(watch).toEqual({ offsite: [], errors: [], policyViolations: [] });
  });

  afterAll(async () => {
    await opened.close();
  });

  const costCenters = () => rowsOf(page, 'Centros de custo');
  /** The text of each row shown, in order. */
  const shownTitles = async () => Promise.all((await costCenters().all()).map((row) => row.getByRole('cell').first().innerText()));
  /** The titles of a page of the API's list, asked directly. */
  const apiTitles = async (path: string) => ((await opened.api.call('GET', path)).json.data as { title: string }[]).map((record) => record.title);
  const openCostCenters = async (hash = '#/centros-de-custo') => {
    await page.goto('about:blank');
    await page.goto(`${opened.url}/console/${hash}`);
    await page.getByRole('heading', { level: 1, name: 'Centros de custo' }).waitFor();
  };
  const sortOf = (name: string) => page.getByRole('columnheader', { name }).getAttribute('aria-sort');

  it('shows how many records there are, counted by the API, in Brazilian Portuguese', async () => {
    await openCostCenters();
    await page.getByRole('status').getByText('1.234 centros de custo', { exact: true }).waitFor();
    expect(asked.find((one) => one.pathname.startsWith('/api/v1/costCenters'))?.searchParams.get('count')).toBe('true');
    await page.getByRole('link', { name: 'Escalas de trabalho' }).click();
    await page.getByRole('status').getByText('1 escala de trabalho', { exact: true }).waitFor();
  });

  it('searches as the operator types, once typing pauses, accents and case aside', async () => {
    await openCostCenters();
    await page.getByText('1.234 centros de custo', { exact: true }).waitFor();
    asked = [];
    await page.getByRole('searchbox', { name: 'Buscar' }).pressSequentially('MANUTENCAO');
    await page.getByRole('status').getByText('3 centros de custo encontrados', { exact: true }).waitFor();
    // Created at once, in no set order: the list holds them in the API's order.
    expect((await shownTitles()).toSorted()).toEqual(MAINTENANCE.toSorted());
    expect(await shownTitles()).toEqual(await apiTitles('/api/v1/costCenters?q=MANUTENCAO&sort=-createdAt'));
    // Ten letters typed without a pause are one search, not ten.
    const searches = asked.map((one) => one.searchParams.get('q'));
    expect(searches.length).toBeLessThanOrEqual(3);
    expect(searches.at(-1)).toBe('MANUTENCAO');

    await page.getByRole('searchbox', { name: 'Buscar' }).fill('nada assim');
    await page.getByText('Nenhum registro contém o texto buscado.').waitFor();
    await page.getByRole('status').getByText('0 centros de custo encontrados', { exact: true }).waitFor();
    await page.getByRole('searchbox', { name: 'Buscar' }).fill('');
    await page.getByRole('status').getByText('1.234 centros de custo', { exact: true }).waitFor();
    expect(await costCenters().count()).toBe(10);
  });

  it('orders by a column, says which and how with aria-sort, and reverses on a second press', async () => {
    await openCostCenters();
    await expect.poll(() => costCenters().count()).toBe(10);
    // Newest first, unless asked otherwise: the record just created is in view.
    expect([await sortOf('Título'), await sortOf('Criado em'), await sortOf('Atualizado em')]).toEqual([null, 'descending', null]);

    await page.getByRole('button', { name: 'Título', exact: true }).click();
    await expect.poll(() => sortOf('Título')).toBe('ascending');
    expect([await sortOf('Criado em'), await sortOf('Atualizado em')]).toEqual([null, null]);
    await expect.poll(shownTitles).toEqual(await apiTitles('/api/v1/costCenters/0/10?sort=title'));
    expect((await shownTitles())[0]).toBe('Centro 0001');

    await page.getByRole('button', { name: 'Título', exact: true }).click();
    await expect.poll(() => sortOf('Título')).toBe('descending');
    await expect.poll(shownTitles).toEqual(await apiTitles('/api/v1/costCenters/0/10?sort=-title'));
    // Accents and case aside, "manutenção predial" comes last of the three, so first here.
    expect((await shownTitles())[0]).toBe('manutenção predial');

    await page.getByRole('button', { name: 'Atualizado em', exact: true }).click();
    await expect.poll(() => sortOf('Atualizado em')).toBe('ascending');
    await expect.poll(shownTitles).toEqual(await apiTitles('/api/v1/costCenters/0/10?sort=updatedAt'));
    expect(asked.map((one) => one.searchParams.get('sort'))).toEqual(['-createdAt', 'title', '-title', 'updatedAt']);
  });

  it('adds the next page below along the API\'s cursor with "Carregar mais", keeping the rows shown and the focus', async () => {
    await openCostCenters('#/centros-de-custo?sort=-title');
    await expect.poll(shownTitles).toEqual(await apiTitles('/api/v1/costCenters/0/10?sort=-title'));
    const first = await shownTitles();
    const more = page.getByRole('button', { name: 'Carregar mais' });
    await more.click();
    await expect.poll(() => costCenters().count()).toBe(20);
    const shown = await shownTitles();
    expect(shown.slice(0, 10)).toEqual(first);
    expect(shown).toEqual(await apiTitles('/api/v1/costCenters/0/20?sort=-title'));
    const cursor = asked.at(-1);
    expect(cursor?.searchParams.get('after')).toMatch(/^[\w-]+$/u);
    expect(cursor?.searchParams.get('sort')).toBe('-title');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Carregar mais');
    await page.getByText('20 registros exibidos; há mais.').waitFor();
  });

  it('keeps the search and the order in the page\'s address, so a reload shows the same list', async () => {
    await openCostCenters();
    await page.getByRole('searchbox', { name: 'Buscar' }).fill('manutenção');
    await page.getByRole('status').getByText('3 centros de custo encontrados', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Título', exact: true }).click();
    await page.getByRole('button', { name: 'Título', exact: true }).click();
    await expect.poll(() => sortOf('Título')).toBe('descending');
    // The address follows the list's state once it has rendered: wait for it as a reload would.
    const addressed = () => {
      const hash = new URLSearchParams(new URL(page.url()).hash.split('?')[1]);
      return [hash.get('q'), hash.get('sort')];
    };
    await expect.poll(addressed).toEqual(['manutenção', '-title']);

    await page.reload();
    await page.getByRole('status').getByText('3 centros de custo encontrados', { exact: true }).waitFor();
    expect(await page.getByRole('searchbox', { name: 'Buscar' }).inputValue()).toBe('manutenção');
    expect(await sortOf('Título')).toBe('descending');
    expect(await shownTitles()).toEqual(await apiTitles(`/api/v1/costCenters?q=${encodeURIComponent('manutenção')}&sort=-title`));
    await expectAccessible(page, 'list searched and ordered');
  });

  it('follows the address when it changes in the same tab: a pasted link, the tab\'s own link, an unknown sort', async () => {
    await openCostCenters();
    await page.getByRole('status').getByText('1.234 centros de custo', { exact: true }).waitFor();
    const search = page.getByRole('searchbox', { name: 'Buscar' });
    const searchNothing = async () => {
      await search.fill('zzzznada');
      await page.getByText('Nenhum registro contém o texto buscado.').waitFor();
    };
    const goTo = (hash: string) => page.evaluate(`location.hash = ${JSON.stringify(hash)}`);

    await searchNothing();
    await goTo('#/centros-de-custo?q=manutencao&sort=-title');
    await page.getByRole('status').getByText('3 centros de custo encontrados', { exact: true }).waitFor();
    expect(await search.inputValue()).toBe('manutencao');
    await expect.poll(() => sortOf('Título')).toBe('descending');
    await expect.poll(shownTitles).toEqual(await apiTitles('/api/v1/costCenters?q=manutencao&sort=-title'));

    await page.getByRole('navigation', { name: 'Cadastros' }).getByRole('link', { name: 'Centros de custo' }).click();
    await page.getByRole('status').getByText('1.234 centros de custo', { exact: true }).waitFor();
    expect(await search.inputValue()).toBe('');
    expect(await sortOf('Criado em')).toBe('descending');
    await expect.poll(shownTitles).toEqual(await apiTitles('/api/v1/costCenters/0/10?sort=-createdAt'));

    await searchNothing();
    await goTo('#/centros-de-custo?sort=bogus');
    await page.getByRole('status').getByText('1.234 centros de custo', { exact: true }).waitFor();
    expect(await search.inputValue()).toBe('');
    await expect.poll(() => new URL(page.url()).hash).toBe('#/centros-de-custo');
  });

  it('shows no rows and no total for a search that has not loaded: failed, or waiting out a 503, with the failure and “Tentar de novo”', async () => {
    await openCostCenters();
    await page.getByRole('status').getByText('1.234 centros de custo', { exact: true }).waitFor();
    const searches = /\/api\/v1\/costCenters\b[^?]*\?(?:.*&)?q=/u;
    await page.route(searches, (route) => route.abort());
    await page.getByRole('searchbox', { name: 'Buscar' }).fill('Zeladoria');
    const retry = page.getByRole('button', { name: 'Tentar de novo' });
    await retry.waitFor();
    const stale = async () => ({
      rows: await costCenters().count(),
      total: await page.getByText('1.234 centros de custo').count(),
      showing: await page.getByText(/registros? exibidos?/u).count(),
    });
    expect(await stale()).toEqual({ rows: 0, total: 0, showing: 0 });

    await page.unroute(searches);
    let refused = 0;
    await page.route(searches, async (route) => {
      if (refused > 0) return route.fallback();
      refused += 1;
      const error = { code: 'STORAGE_UNAVAILABLE', detail: 'O armazenamento está indisponível no momento; tente novamente.', requestId: 'outage-1' };
      const body = JSON.stringify({ success: false, message: 'Não foi possível retornar os centros de custo.', error });
      return route.fulfill({ status: 503, headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': '2' }, body });
    });
    await page.getByRole('searchbox', { name: 'Buscar' }).fill('Manutenção');
    await page.getByRole('status').getByText('O serviço está indisponível no momento. Nova tentativa em 2 s…').waitFor();
    expect(await stale()).toEqual({ rows: 0, total: 0, showing: 0 });
    await page.getByRole('status').getByText('3 centros de custo encontrados', { exact: true }).waitFor();
    await page.unroute(searches);

    await page.getByRole('searchbox', { name: 'Buscar' }).fill('Zeladoria');
    await page.getByText('Nenhum registro contém o texto buscado.').waitFor();
  });

  it('says the order the rows are in, not the one asked for, while that order waits out a 503', async () => {
    await openCostCenters();
    await expect.poll(shownTitles).toEqual(await apiTitles('/api/v1/costCenters/0/10?sort=-createdAt'));
    const byTitle = /\/api\/v1\/costCenters\b[^?]*\?(?:.*&)?sort=title\b/u;
    let refused = 0;
    await page.route(byTitle, async (route) => {
      if (refused > 0) return route.fallback();
      refused += 1;
      const error = { code: 'STORAGE_UNAVAILABLE', detail: 'O armazenamento está indisponível no momento; tente novamente.', requestId: 'outage-2' };
      const body = JSON.stringify({ success: false, message: 'Não foi possível retornar os centros de custo.', error });
      return route.fulfill({ status: 503, headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': '2' }, body });
    });
    await page.getByRole('button', { name: 'Título', exact: true }).click();
    await page.getByRole('status').getByText('O serviço está indisponível no momento. Nova tentativa em 2 s…').waitFor();
    expect([await sortOf('Título'), await sortOf('Criado em')]).toEqual([null, 'descending']);
    await expect.poll(() => sortOf('Título'), { timeout: 5000 }).toBe('ascending');
    expect(await shownTitles()).toEqual(await apiTitles('/api/v1/costCenters/0/10?sort=title'));
    await page.unroute(byTitle);
  });

  it('shows the record just created at the top of the list, newest first, and counts it', async () => {
    await openCostCenters();
    await page.getByRole('status').getByText(/^\d{1,3}(?:\.\d{3})* centros de custo$/u).waitFor();
    await page.getByLabel('Novo centro de custo').fill('Centro recém-criado');
    await page.getByRole('button', { name: 'Criar' }).click();
    await expect.poll(async () => (await shownTitles())[0]).toBe('Centro recém-criado');
    // The rows shown are the list's first, in its order, the new one among them (its own change read the list again).
    await expect.poll(async () => shownTitles()).toEqual(await apiTitles(`/api/v1/costCenters/0/${String(await costCenters().count())}?sort=-createdAt`));
    expect(await sortOf('Criado em')).toBe('descending');
    const total = await opened.api.all('costCenters');
    await page.getByRole('status').getByText(`${new Intl.NumberFormat('pt-BR').format(total.length)} centros de custo`, { exact: true }).waitFor();
    await opened.api.call('DELETE', `/api/v1/costCenter/${total.find((record) => record.title === 'Centro recém-criado')?.id ?? ''}`);
  });

  it('keeps the page size in the address with the search and the order, so a reload shows the same list', async () => {
    await openCostCenters('#/centros-de-custo?sort=title');
    await expect.poll(() => costCenters().count()).toBe(10);
    await page.getByLabel('Registros por página').selectOption('25');
    const addressed = () => {
      const hash = new URLSearchParams(new URL(page.url()).hash.split('?')[1]);
      return [hash.get('sort'), hash.get('limit')];
    };
    await expect.poll(addressed).toEqual(['title', '25']);
    asked = [];
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Centros de custo' }).waitFor();
    await expect.poll(() => page.getByLabel('Registros por página').inputValue()).toBe('25');
    const read = () => asked.filter((one) => one.pathname.startsWith('/api/v1/costCenters')).map((one) => `${one.pathname} ${one.searchParams.get('sort') ?? ''}`);
    await expect.poll(read).toContain('/api/v1/costCenters/0/25 title');
    await expect.poll(() => costCenters().count()).toBe(25);

    // A size the console does not offer (an old link, a typo) is its default; the default is not written.
    await openCostCenters('#/centros-de-custo?limit=7');
    await expect.poll(() => costCenters().count()).toBe(10);
    expect(await page.getByLabel('Registros por página').inputValue()).toBe('10');
    await page.getByLabel('Registros por página').selectOption('100');
    await expect.poll(addressed).toEqual([null, '100']);
    await page.getByLabel('Registros por página').selectOption('10');
    await expect.poll(() => new URL(page.url()).hash).toBe('#/centros-de-custo');
  });

  it('counts in Brazilian Portuguese wherever it counts, as the total does: an import\'s lines, an export', async () => {
    await openCostCenters();
    await page.getByRole('status').getByText('1.234 centros de custo', { exact: true }).waitFor();
    const lines = Array.from({ length: 1000 }, (_, n) => `Linha ${String(n)}`).join('\n');
    await page.getByLabel('Importar CSV').setInputFiles({ name: 'mil.csv', mimeType: 'text/csv', buffer: Buffer.from(lines) });
    await page.getByRole('button', { name: 'Importar 1.000 linhas' }).waitFor();

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exportar CSV' }).click();
    const download = await downloading;
    await page.getByText(`1.234 registros exportados para ${download.suggestedFilename()}.`).waitFor();
  });

  it('orders the cards at 360 px wide with the same buttons, nothing wider than the screen', async () => {
    await page.setViewportSize({ width: 360, height: 780 });
    await openCostCenters();
    await expect.poll(() => costCenters().count()).toBe(10);
    await page.getByRole('button', { name: 'Título', exact: true }).click();
    await expect.poll(() => sortOf('Título')).toBe('ascending');
    await expect.poll(shownTitles).toEqual(await apiTitles('/api/v1/costCenters/0/10?sort=title'));
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await expectAccessible(page, 'list ordered at 360 px');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('pages the plain list along a cursor too: a record deleted while no change reaches the page pushes none out of sight', async () => {
    const made: string[] = [];
    for (let n = 1; n <= 14; n += 1) made.push((await opened.api.create('scale', `turno ${String(n).padStart(2, '0')}`)).id);
    // The console's own order, newest first, as the API gives it (records made in the same millisecond by id).
    const values = async () => ((await opened.api.call('GET', '/api/v1/scales/0/20?sort=-createdAt')).json.data as { value: string }[]).map((record) => record.value);
    const changes = /\/api\/v1\/changes\b/u;
    await page.route(changes, (route) => route.abort());
    try {
      await page.goto('about:blank');
      await page.goto(`${opened.url}/console/#/escalas`);
      const scales = () => rowsOf(page, 'Escalas de trabalho');
      const shownValues = async () => Promise.all((await scales().all()).map((row) => row.getByRole('cell').first().innerText()));
      await expect.poll(shownValues).toEqual((await values()).slice(0, 10));
      const gone = made.at(-1) ?? '';
      expect((await opened.api.call('DELETE', `/api/v1/scale/${gone}`)).response.status).toBe(200);
      await page.getByRole('button', { name: 'Carregar mais' }).click();
      await expect.poll(() => scales().count()).toBe(15);
      // The deleted record is still shown (no change told the page); every record there is, is shown once.
      const shown = await shownValues();
      expect(shown.filter((value) => value !== 'turno 14')).toEqual(await values());
      expect(asked.at(-1)?.searchParams.get('after')).toMatch(/^[\w-]+$/u);
    } finally {
      await page.unroute(changes);
      for (const id of made.slice(0, -1)) await opened.api.call('DELETE', `/api/v1/scale/${id}`);
    }
  });
});
