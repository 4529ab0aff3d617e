import { readFile } from 'node:fs/promises';
import { chromiumIsRequired, chromiumPath, hasChromium, warnWithoutChromium, type AppProcess } from '@workplan/testing';
import { type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, brazilianDate, isListRead, openConsoleBrowser, rowsOf, runConsoleApp, signIn, type ApiRecord, type ConsoleBrowser } from './testing/console-session.js';

// The console's pages, spreadsheets and outages as an operator meets them, in Debian's
// Chromium against the built app (a page maximum of 20, so a walk takes several pages).

warnWithoutChromium('console-sheets.test.ts', 'the operator console');

const JSON_TYPE = 'application/json; charset=utf-8';

describe('the console\'s pages, spreadsheets and outages, in Chromium', { timeout: 30_000 }, () => {
  it.runIf(chromiumIsRequired)('has a Chromium to run in (CI=true)', () => {
    throw new Error(`${chromiumPath} is missing: apt-get install -y chromium`);
  });

  describe.runIf(hasChromium)('as an operator', () => {
    let app: AppProcess;
    let url = '';
    let api: ReturnType<typeof apiOf>;
    let session: ConsoleBrowser;
    let page: Page;
    const costCenters = () => rowsOf(page, 'Centros de custo');

    beforeAll(async () => {
      app = runConsoleApp();
      url = await app.listening();
      api = apiOf(url);
      session = await openConsoleBrowser(url);
      page = await session.newTab();
      await signIn(page, url);
    });

    afterEach(async () => {
      // Only the routes the tests add: the watch's own route stays.
      await page.unroute('**/api/v1/costCenter');
      await page.unroute('**/api/v1/scales/**');
      for (const watch of session.watches) expect(watch).toEqual({ offsite: [], errors: [], policyViolations: [] });
    });

    afterAll(async () => {
      await session.browser.close();
      await app.stop();
    });

    /** Opens a resource's tab afresh, so its table reads the service again. */
    const openTab = async (hash: string, heading: string) => {
      await page.goto('about:blank');
      await page.goto(`${url}/console/#/${hash}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    };

    it('shows 25 records over pages of 10, following the API\'s next link', async () => {
      const made = [];
      for (let n = 1; n <= 25; n += 1) made.push(await api.create('costCenter', `Centro ${String(n).padStart(2, '0')}`));
      const asked: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (isListRead(url)) asked.push(`${url.pathname} ${url.searchParams.has('after') ? 'after' : 'first'}`);
      });
      await openTab('centros-de-custo', 'Centros de custo');
      await expect.poll(() => costCenters().count()).toBe(10);
      await page.getByText('10 registros exibidos; há mais.').waitFor();
      await page.getByRole('button', { name: 'Carregar mais' }).click();
      await expect.poll(() => costCenters().count()).toBe(20);
      await page.getByRole('button', { name: 'Carregar mais' }).click();
      await expect.poll(() => costCenters().count()).toBe(25);
      await page.getByText('25 registros exibidos; não há mais registros.').waitFor();
      expect(await page.getByRole('button', { name: 'Carregar mais' }).count()).toBe(0);
      // Newest first, the console's own order (-createdAt; records of the same millisecond by id ascending, as the contract says).
      const newestFirst = made.toSorted((one, other) => other.createdAt.localeCompare(one.createdAt) || (one.id < other.id ? -1 : 1));
      expect(await costCenters().getByRole('cell', { name: /^Centro \d\d$/u }).allInnerTexts()).toEqual(newestFirst.map((record) => record.title));
      // A cursor, not a skip: a record deleted above the next page pushes none out of sight.
      expect(asked.filter((path) => path.startsWith('/api/v1/costCenters'))).toEqual([
        '/api/v1/costCenters/0/10 first',
        '/api/v1/costCenters/0/10 after',
        '/api/v1/costCenters/0/10 after',
      ]);
    });

    it('offers only the page sizes the service accepts: 10 alone under its maximum of 20, and an address asking 25 gets 10', async () => {
      await openTab('centros-de-custo?limit=25', 'Centros de custo');
      const pageSize = page.getByLabel('Registros por página');
      await expect.poll(() => pageSize.locator('option').allInnerTexts()).toEqual(['10']);
      expect(await pageSize.inputValue()).toBe('10');
      await expect.poll(() => new URL(page.url()).hash).toBe('#/centros-de-custo');
      await expect.poll(() => costCenters().count()).toBe(10);
    });

    it('imports 50 rows of which 3 break a rule: a progress bar, the other 47 created, and a report that says why', async () => {
      const good = Array.from({ length: 47 }, (_, n) => `Importação ${String(n + 1).padStart(2, '0')}`);
      const bad = new Map([
        [5, 'x'.repeat(201)],
        [20, '"   "'],
        [40, 'com\ttabulação'],
      ]);
      const lines = [...good];
      for (const [at, text] of bad) lines.splice(at - 1, 0, text);
      expect(lines).toHaveLength(50);
      // Slow each create a little, so the progress bar is there to be seen.
      await page.route('**/api/v1/costCenter', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        await route.fallback();
      });
      await openTab('centros-de-custo', 'Centros de custo');
      await page.getByLabel('Importar CSV').setInputFiles({ name: 'centros.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`) });
      await page.getByRole('button', { name: 'Importar 50 linhas' }).click();
      const progress = page.getByRole('progressbar');
      await progress.waitFor();
      expect(await progress.getAttribute('max')).toBe('50');
      const report = page.getByRole('region', { name: 'Relatório da importação' });
      await report.waitFor();
      await report.getByText('47 criados, 0 já existiam, 3 inválidos.').waitFor();
      const reportRows = rowsOf(page, 'Relatório da importação');
      expect(await reportRows.count()).toBe(50);
      for (const [line, text] of bad) {
        const cells = await reportRows.nth(line - 1).getByRole('cell').allTextContents();
        const sent = text === '"   "' ? '   ' : text;
        expect(cells.slice(0, 3)).toEqual([String(line), sent, 'Inválido']);
        expect(cells[3]?.trim()).toBe(await api.issueOf(sent));
      }
      const stored = (await api.all('costCenters')).map((record) => record.title);
      expect(stored).toEqual(expect.arrayContaining(good));
      expect(stored.filter((title) => title?.startsWith('Importação'))).toHaveLength(47);
    });

    it('imports a CSV saved by Excel in Windows-1252: the accents as typed, the header row left out, and says how it read the file', async () => {
      await openTab('centros-de-custo', 'Centros de custo');
      // Excel's "CSV (separado por vírgulas)" on a Brazilian Windows: a byte a character,
      // ç as E7, “ ” as 93 and 94 (latin1 writes each code point below 256 as that byte).
      const bytes = Buffer.from('ID;Título;Criado em\r\n;Operações\r\n;Turno \x93noturno\x94\r\n', 'latin1');
      expect([...bytes.subarray(26, 30)]).toEqual([0x61, 0xe7, 0xf5, 0x65]);
      await page.getByLabel('Importar CSV').setInputFiles({ name: 'excel.csv', mimeType: 'text/csv', buffer: bytes });
      const reading = 'Arquivo lido como Windows-1252, a codificação que o Excel usa por padrão no Windows (não era UTF-8). A primeira linha é um cabeçalho (“Título”): não é importada.';
      await page.getByText(reading).waitFor();
      await page.getByRole('button', { name: 'Importar 2 linhas' }).click();
      const report = page.getByRole('region', { name: 'Relatório da importação' });
      await report.getByText('2 criados, 0 já existiam, 0 inválidos.').waitFor();
      await report.getByText(reading).waitFor();
      const stored = (await api.all('costCenters')).map((record) => record.title);
      expect(stored.slice(-2)).toEqual(['Operações', 'Turno “noturno”']);
      expect(stored).not.toContain('Título');
    });

    it('imports a quote inside an unquoted cell as text, and every row after it as its own', async () => {
      await openTab('centros-de-custo', 'Centros de custo');
      const values = ['Turno 12" noturno', 'Monitor 15"', 'Depois das aspas', '"Entre aspas" no início'];
      const file = ['Turno 12" noturno', 'Monitor 15"', 'Depois das aspas', '"""Entre aspas"" no início"'].join('\r\n');
      await page.getByLabel('Importar CSV').setInputFiles({ name: 'aspas.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
      await page.getByRole('button', { name: 'Importar 4 linhas' }).click();
      await page.getByRole('region', { name: 'Relatório da importação' }).getByText('4 criados, 0 já existiam, 0 inválidos.').waitFor();
      expect((await api.all('costCenters')).slice(-4).map((record) => record.title)).toEqual(values);
    });

    it('imports a one-column list whole, a ; or a , in a value and all, and a , file headed Valor,Código by its Valor column', async () => {
      await openTab('centros-de-custo', 'Centros de custo');
      const list = Buffer.from('\uFEFFTurno A; noturno\r\nManutenção, elétrica\r\n', 'utf8');
      await page.getByLabel('Importar CSV').setInputFiles({ name: 'lista.csv', mimeType: 'text/csv', buffer: list });
      await page.getByRole('button', { name: 'Importar 2 linhas' }).click();
      await page.getByRole('region', { name: 'Relatório da importação' }).getByText('2 criados, 0 já existiam, 0 inválidos.', { exact: true }).waitFor();
      expect((await api.all('costCenters')).slice(-2).map((record) => record.title)).toEqual(['Turno A; noturno', 'Manutenção, elétrica']);

      const libreOffice = Buffer.from('Valor,Código\nTurno B; noturno,X1\nZeladoria,X2\n', 'utf8');
      await page.getByLabel('Importar CSV').setInputFiles({ name: 'libreoffice.csv', mimeType: 'text/csv', buffer: libreOffice });
      await page.getByText('A primeira linha é um cabeçalho (“Valor”): não é importada.').waitFor();
      await page.getByRole('button', { name: 'Importar 2 linhas' }).click();
      await page.getByRole('region', { name: 'Relatório da importação' }).getByText('2 criados, 0 já existiam, 0 inválidos.', { exact: true }).waitFor();
      expect((await api.all('costCenters')).slice(-2).map((record) => record.title)).toEqual(['Turno B; noturno', 'Zeladoria']);
    });

    it('refuses a file that is no text, a workbook chosen by mistake, saying how to save it as CSV', async () => {
      await openTab('centros-de-custo', 'Centros de custo');
      const workbook = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0x00, 0x00, 0x21, 0x00]);
      await page.getByLabel('Importar CSV').setInputFiles({ name: 'centros.xlsx', mimeType: 'text/csv', buffer: workbook });
      await page.getByRole('alert').getByText('escolha o tipo “CSV UTF-8 (Delimitado por vírgulas)”').waitFor();
      expect(await page.getByRole('button', { name: /^Importar \d/u }).count()).toBe(0);
    });

    it('stops an import cleanly when cancelled: the row being sent is answered, the rest are not sent', async () => {
      const before = await api.all('costCenters');
      await page.route('**/api/v1/costCenter', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        await route.fallback();
      });
      await openTab('centros-de-custo', 'Centros de custo');
      const values = ['Cancelada A', 'Cancelada B', 'Cancelada C', 'Cancelada D', 'Cancelada E', 'Cancelada F'];
      await page.getByLabel('Importar CSV').setInputFiles({ name: 'poucos.csv', mimeType: 'text/csv', buffer: Buffer.from(values.join('\n')) });
      await page.getByRole('button', { name: 'Importar 6 linhas' }).click();

      // Each state of the bar lasts a moment: poll for one that holds until the import ends.
      const progress = page.getByRole('progressbar', { name: /^Importando: \d de 6$/u });
      await expect.poll(async () => Number(await progress.getAttribute('value')), { interval: 20 }).toBeGreaterThanOrEqual(1);
      await page.getByRole('button', { name: 'Cancelar importação' }).click();
      const report = page.getByRole('region', { name: 'Relatório da importação' });
      await report.waitFor();
      const outcomes = await rowsOf(page, 'Relatório da importação').getByRole('cell').allInnerTexts();
      const created = values.filter((_, n) => outcomes[n * 4 + 2] === 'Criado');
      const skipped = values.filter((_, n) => outcomes[n * 4 + 2] === 'Não enviado');
      expect(created.length).toBeGreaterThanOrEqual(2);
      expect(created.length + skipped.length).toBe(6);
      expect(skipped.length).toBeGreaterThan(0);
      const after = (await api.all('costCenters')).map((record) => record.title);
      expect(after.slice(before.length)).toEqual(created);
    });

    it('retries a row answered 503 after its Retry-After, saying so, and reports it created', async () => {
      let refused = 0;
      await page.route('**/api/v1/costCenter', async (route) => {
        if (refused > 0 || (route.request().postDataJSON() as { title?: string }).title !== 'Depois da espera') return route.fallback();
        refused += 1;
        const error = { code: 'STORAGE_UNAVAILABLE', detail: 'O armazenamento está indisponível no momento; tente novamente.', requestId: 'outage-2' };
        const body = JSON.stringify({ success: false, message: 'Não foi possível criar o centro de custo.', error });
        return route.fulfill({ status: 503, headers: { 'content-type': JSON_TYPE, 'retry-after': '1' }, body });
      });
      await openTab('centros-de-custo', 'Centros de custo');
      const values = ['Antes da espera', 'Depois da espera', 'Por último'];
      await page.getByLabel('Importar CSV').setInputFiles({ name: 'tres.csv', mimeType: 'text/csv', buffer: Buffer.from(values.join('\n')) });
      await page.getByRole('button', { name: 'Importar 3 linhas' }).click();
      await page.getByText('Linha 2: O serviço está indisponível no momento. Nova tentativa em 1 s…').waitFor();
      await page.getByRole('region', { name: 'Relatório da importação' }).getByText('3 criados, 0 já existiam, 0 inválidos.').waitFor();
      expect(refused).toBe(1);
      expect((await api.all('costCenters')).slice(-3).map((record) => record.title)).toEqual(values);
    });

    it('exports every record, walking the pages, as a CSV with a BOM whose rows equal the API\'s list', async () => {
      const stored = await api.all('costCenters');
      expect(stored.length).toBeGreaterThan(60); // over three pages of 20
      const asked: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (isListRead(url)) asked.push(`${url.pathname} ${url.searchParams.has('after') ? 'after' : 'first'}`);
      });
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Exportar CSV' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^centros-de-custo-\d{4}-\d{2}-\d{2}\.csv$/u);
      const bytes = await readFile(await download.path());
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const [header, ...rows] = bytes.toString('utf8').slice(1).split('\r\n').filter((line) => line !== '');
      expect(header).toBe('ID;Título;Criado em (Horário Padrão de Brasília);Atualizado em (Horário Padrão de Brasília);Criado em (ISO 8601, UTC);Atualizado em (ISO 8601, UTC)');
      // RFC 4180: a cell holding the separator, a quote or a line break is quoted, its quotes doubled.
      const cell = (text = '') => (/[;"\r\n]/u.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
      // Local dates (São Paulo, three hours behind UTC), then the exact instants.
      const dates = (record: ApiRecord) => [brazilianDate(record.createdAt, -3, true), brazilianDate(record.updatedAt, -3, true), record.createdAt, record.updatedAt];
      expect(rows).toEqual(stored.map((record) => [record.id, cell(record.title), ...dates(record)].join(';')));
      expect(asked.filter((path) => path.startsWith('/api/v1/costCenters')).length).toBe(Math.ceil(stored.length / 20));
    });

    it('says the service is unavailable on a 503, and tries again after its Retry-After', async () => {
      let refused = 0;
      await page.route('**/api/v1/scales/**', async (route) => {
        if (refused > 0) return route.fallback();
        refused += 1;
        const error = { code: 'STORAGE_UNAVAILABLE', detail: 'O armazenamento está indisponível no momento; tente novamente.', requestId: 'outage-1' };
        const body = JSON.stringify({ success: false, message: 'Não foi possível retornar as escalas de trabalho.', error });
        return route.fulfill({ status: 503, headers: { 'content-type': JSON_TYPE, 'retry-after': '1' }, body });
      });
      const started = Date.now();
      await api.create('scale', 'Depois da queda');
      await page.getByRole('link', { name: 'Escalas de trabalho' }).click();
      await page.getByRole('status').getByText('O serviço está indisponível no momento. Nova tentativa em 1 s…').waitFor();
      await rowsOf(page, 'Escalas de trabalho').getByRole('cell', { name: 'Depois da queda', exact: true }).waitFor();
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(refused).toBe(1);
    });

    it('exports a text a spreadsheet would run as a formula behind a quote, and imports that file back to the same texts', async () => {
      const attacks = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", '@SUM(1+1)', '-1'];
      const made = [];
      for (const text of attacks) made.push(await api.create('scale', text));
      await openTab('escalas', 'Escalas de trabalho');
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Exportar CSV' }).click();
      const download = await downloading;
      const file = await readFile(await download.path());
      const lines = file.toString('utf8').slice(1).split('\r\n');
      for (const record of made) {
        const line = lines.find((one) => one.startsWith(`${record.id};`)) ?? '';
        // The value's cell is quoted and starts with a quote: text to Excel, never a formula.
        expect(line.slice(record.id.length + 1)).toMatch(/^"'[=+@-]/u);
        expect(line).toContain(`"'${(record.value ?? '').replaceAll('"', '""')}"`);
      }

      for (const record of made) expect((await api.call('DELETE', `/api/v1/scale/${record.id}`)).response.status).toBe(200);
      await page.getByLabel('Importar CSV').setInputFiles({ name: download.suggestedFilename(), mimeType: 'text/csv', buffer: file });
      await page.getByRole('button', { name: `Importar ${lines.length - 2} linhas` }).click();
      await page.getByRole('region', { name: 'Relatório da importação' }).getByText(/^4 criadas, \d+ já existiam?, 0 inválidas\.$/u).waitFor();
      const stored = (await api.all('scales')).map((record) => record.value);
      expect(stored.slice(-4)).toEqual(attacks);
    });
  });
});
