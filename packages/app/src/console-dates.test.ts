import { readFile } from 'node:fs/promises';
import { warnWithoutChromium } from '@workplan/testing';
import { type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { brazilianDate, describeInChromium, openConsole, rowsOf, signIn, type ApiRecord, type OpenedConsole } from './testing/console-session.js';

// Dates as a Brazilian reads them, in a browser whose language is English: the page in
// Brazilian form and the clerk's own time zone, saying which; the CSV in the local time
// Excel in Portuguese reads as dates, and the exact instant beside it.

warnWithoutChromium('console-dates.test.ts', 'the operator console\'s dates');

// Manaus: four hours behind UTC all year, and not Brasília's zone, so a time in either would be told apart.
const MANAUS = -4;

describeInChromium('the console\'s dates, in an English Chromium in Manaus', () => {
  let opened: OpenedConsole;
  let page: Page;
  let record: ApiRecord;

  beforeAll(async () => {
    opened = await openConsole({ locale: 'en-US', timezoneId: 'America/Manaus' });
    page = opened.page;
    record = await opened.api.create('scale', '6x2');
    await opened.api.call('PUT', `/api/v1/scale/${record.id}`, { value: '6x2 noturno' });
    await signIn(page, opened.url);
  }, 60_000);

  afterEach(() => {
    for (const watch of opened.session.watches) expect(watch).toEqual({ offsite: [], errors: [], policyViolations: [] });
  });

  afterAll(async () => {
    await opened.close();
  });

  it('shows every date of the list as 02/12/2026 03:19 in the computer\'s zone, and names the zone', async () => {
    const [stored] = await opened.api.all('scales');
    const row = rowsOf(page, 'Escalas de trabalho').first();
    await row.getByRole('cell', { name: '6x2 noturno', exact: true }).waitFor();
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells.slice(1, 3)).toEqual([brazilianDate(stored?.createdAt ?? '', MANAUS), brazilianDate(stored?.updatedAt ?? '', MANAUS)]);
    const zone = page.getByText(/^Datas e horas no fuso deste computador: .+\.$/u);
    expect(await zone.innerText()).toMatch(/Amazonas/u);
    // Nothing in the page is in the browser's English form (12/2/26, 6:19:27 AM).
    expect(await page.locator('main').innerText()).not.toMatch(/\d{1,2}\/\d{1,2}\/\d{2}\b|\b[AP]M\b/u);
  });

  it('shows the history\'s dates in the same form and zone, and names the zone there too', async () => {
    const history = (await opened.api.call('GET', `/api/v1/scale/${record.id}/history`)).json.data as { at: string }[];
    await page.getByRole('button', { name: 'Histórico de “6x2 noturno”' }).click();
    const dialog = page.getByRole('dialog', { name: 'Histórico de “6x2 noturno”' });
    await expect.poll(() => dialog.locator('time').allInnerTexts()).toEqual(history.map((change) => brazilianDate(change.at, MANAUS)));
    expect(await dialog.getByText(/^Datas e horas no fuso deste computador: /u).innerText()).toMatch(/Amazonas/u);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('exports local dates Excel in Portuguese reads as dates, naming the zone, and the exact instants beside them', async () => {
    const [stored] = await opened.api.all('scales');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exportar CSV' }).click();
    const download = await downloading;
    const [header, ...rows] = (await readFile(await download.path())).toString('utf8').slice(1).split('\r\n').filter((line) => line !== '');
    expect(header).toMatch(/^ID;Valor;Criado em \([^;)]*Amazonas\);Atualizado em \([^;)]*Amazonas\);Criado em \(ISO 8601, UTC\);Atualizado em \(ISO 8601, UTC\)$/u);
    const { id = '', value = '', createdAt = '', updatedAt = '' } = stored ?? {};
    expect(rows).toEqual([[id, value, brazilianDate(createdAt, MANAUS, true), brazilianDate(updatedAt, MANAUS, true), createdAt, updatedAt].join(';')]);
    // The file is named for the day in the computer's zone, as the clerk's calendar says it.
    const today = brazilianDate(new Date().toISOString(), MANAUS).slice(0, 10).split('/').toReversed().join('-');
    expect(download.suggestedFilename()).toBe(`escalas-de-trabalho-${today}.csv`);
  });
});
