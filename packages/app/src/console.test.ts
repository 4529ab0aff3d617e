import { gzipSync } from 'node:zlib';
import { chromiumIsRequired, chromiumPath, hasChromium, send, warnWithoutChromium, type AppProcess } from '@workplan/testing';
import { type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, brazilianDate, consoleKey, openConsoleBrowser, rowsOf, runConsoleApp, signIn, type ConsoleBrowser } from './testing/console-session.js';

// The operator console as an operator uses it, in Debian's Chromium, against the built app
// run as `pnpm start` runs it; every step is checked against the API's own answers.

warnWithoutChromium('console.test.ts', 'the operator console');

const BUDGET_GZIP_BYTES = 100 * 1024;
let app: AppProcess;
let url = '';
let api: ReturnType<typeof apiOf>;

beforeAll(async () => {
  app = runConsoleApp();
  url = await app.listening();
  api = apiOf(url);
});

afterAll(async () => {
  await app.stop();
});

describe('the console, as served', () => {
  it('redirects / to /console/, whose page loads only its own files, under 100 KB of JavaScript gzip', async () => {
    const root = await send(url, { path: '/' });
    expect({ status: root.status, location: root.headers.location }).toEqual({ status: 302, location: '/console/' });
    const page = await send(url, { path: '/console/' });
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'self'; script-src 'self'; style-src 'self';/u);
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/u); // no inline script
    expect(page.text).not.toMatch(/\b(?:src|href)="(?:https?:)?\/\//u); // nothing from another origin
    const scripts = [...page.text.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="([^"]+)"/gu)].map((m) => m[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    let gzipped = 0;
    for (const script of scripts) {
      const asset = await send(url, { path: script });
      expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
      gzipped += gzipSync(asset.text).length;
    }
    console.log(`console: first-load JavaScript ${gzipped} bytes gzip (${scripts.join(', ')})`);
    expect(gzipped).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
  });
});

describe('the console, in Chromium', { timeout: 30_000 }, () => {
  it.runIf(chromiumIsRequired)('has a Chromium to run in (CI=true)', () => {
    throw new Error(`${chromiumPath} is missing: apt-get install -y chromium`);
  });

  describe.runIf(hasChromium)('as an operator', () => {
    let session: ConsoleBrowser;
    let page: Page;

    beforeAll(async () => {
      session = await openConsoleBrowser(url);
      page = await session.newTab();
    });

    afterEach(() => {
      for (const watch of session.watches) expect(watch).toEqual({ offsite: [], errors: [], policyViolations: [] });
    });

    afterAll(async () => {
      await session.browser.close();
    });

    it('asks for the key, says a wrong one was refused (the seed\'s detail, nothing of any resource), and keeps the right one for this tab only', async () => {
      await page.goto(`${url}/`);
      expect(page.url()).toBe(`${url}/console/`);
      await page.getByLabel('Chave de API').fill('not-the-key-000000000');
      await page.getByRole('button', { name: 'Entrar' }).click();
      const refusal = page.getByRole('alert');
      await expect.poll(() => refusal.innerText()).toContain('A chave não foi aceita.');
      expect(await refusal.innerText()).toContain('Chave de API ausente ou inválida. Confira e digite de novo.');
      expect(await refusal.innerText()).not.toMatch(/escala|centro|retornar/iu);
      // A key no service holds (an accent, a space inside): said so, not taken for a lost connection.
      await page.getByLabel('Chave de API').fill('chave com acentuação 0123');
      await page.getByRole('button', { name: 'Entrar' }).click();
      await expect.poll(() => refusal.innerText()).toContain('Uma chave tem só letras sem acento, números e sinais, sem espaços. Confira e digite de novo.');
      expect(await refusal.innerText()).toContain('A chave não foi aceita.');

      await page.getByLabel('Chave de API').fill(consoleKey);
      const sent = page.waitForRequest((request) => request.url().includes('/api/v1/scales/'));
      await page.getByRole('button', { name: 'Entrar' }).click();
      expect((await sent).headers().key).toBe(consoleKey);
      await page.getByRole('heading', { level: 1, name: 'Escalas de trabalho' }).waitFor();
      expect(await page.evaluate('[sessionStorage.getItem("workplan.key"), localStorage.length, document.cookie]')).toEqual([consoleKey, 0, '']);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Escalas de trabalho' }).waitFor();
    });

    it('creates, edits in place and deletes after a confirmation, showing dates in Brazilian form in the browser\'s zone', async () => {
      await page.getByLabel('Nova escala de trabalho').fill('12x36');
      await page.getByLabel('Nova escala de trabalho').press('Enter');
      const rows = rowsOf(page, 'Escalas de trabalho');
      await rows.getByRole('cell', { name: '12x36', exact: true }).waitFor();
      const [created] = await api.all('scales');
      expect(created?.value).toBe('12x36');
      // São Paulo, the browser's zone: three hours behind UTC all year.
      expect(await rows.first().getByRole('cell').nth(1).innerText()).toBe(brazilianDate(created?.createdAt ?? '', -3));

      await page.getByRole('button', { name: 'Editar “12x36”' }).click();
      await page.getByRole('textbox', { name: 'Editar “12x36”' }).fill('12x36 noturno');
      await page.getByRole('button', { name: 'Salvar' }).click();
      await rows.getByRole('cell', { name: '12x36 noturno', exact: true }).waitFor();
      expect((await api.all('scales')).map((record) => record.value)).toEqual(['12x36 noturno']);

      await page.getByRole('button', { name: 'Excluir “12x36 noturno”' }).click();
      const dialog = page.getByRole('dialog', { name: 'Excluir registro' });
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await api.all('scales')).toHaveLength(1);
      await page.getByRole('button', { name: 'Excluir “12x36 noturno”' }).click();
      await dialog.getByRole('button', { name: 'Excluir' }).click();
      await rows.getByRole('cell', { name: '12x36 noturno', exact: true }).waitFor({ state: 'detached' });
      // A escala: the message agrees with the resource's gender.
      await page.getByRole('status').getByText('Escala de trabalho “12x36 noturno” excluída.', { exact: true }).waitFor();
      expect(await api.all('scales')).toEqual([]);
    });

    it('says a broken rule beside its field, and names the record a clash is with, with a link to it', async () => {
      const field = page.getByLabel('Nova escala de trabalho');
      await field.fill('   ');
      await field.press('Enter');
      const issue = page.getByRole('alert');
      await expect.poll(() => issue.innerText()).toContain('Não foi possível criar a escala de trabalho.');
      expect(await issue.innerText()).toContain(await api.issueOf('   '));
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await field.getAttribute('aria-describedby')).toBe(await issue.getAttribute('id'));

      await page.getByRole('link', { name: 'Centros de custo' }).click();
      await page.getByRole('heading', { level: 1, name: 'Centros de custo' }).waitFor();
      const holder = await api.create('costCenter', 'Financeiro');
      await page.getByLabel('Novo centro de custo').fill(' FINANCEIRO ');
      await page.getByRole('button', { name: 'Criar' }).click();
      const clash = page.getByRole('alert');
      await expect.poll(() => clash.innerText()).toContain('Não foi possível criar o centro de custo.');
      await clash.getByText('Já cadastrado como “Financeiro”.').waitFor();
      await clash.getByRole('link', { name: 'Abrir o registro que já usa este valor' }).click();
      const opened = page.getByRole('region', { name: 'Registro aberto' });
      await opened.getByRole('cell', { name: 'Financeiro', exact: true }).waitFor();
      expect(new URL(page.url()).hash).toBe(`#/centros-de-custo/${holder.id}`);
      await opened.getByRole('link', { name: 'Fechar' }).click();
      await opened.waitFor({ state: 'detached' });
    });

    it('refuses an edit of a record that another tab changed meanwhile (412), offers a reload, and saves after it', async () => {
      const record = await api.create('scale', 'Escala 5x2');
      // Searched for, so the record shows whatever the earlier tests left on the first page.
      const listed = `${url}/console/#/escalas?q=${encodeURIComponent('Escala 5x2')}`;
      await page.goto(listed);
      await page.getByRole('button', { name: 'Editar “Escala 5x2”' }).click();
      const mine = page.getByRole('textbox', { name: 'Editar “Escala 5x2”' });
      await mine.fill('Escala 5x2 (esta aba)');

      const other = await session.newTab();
      await signIn(other, url);
      await other.goto(listed);
      await other.getByRole('button', { name: 'Editar “Escala 5x2”' }).click();
      await other.getByRole('textbox', { name: 'Editar “Escala 5x2”' }).fill('Escala 5x2 (outra aba)');
      await other.getByRole('button', { name: 'Salvar' }).click();
      await rowsOf(other, 'Escalas de trabalho').getByRole('cell', { name: 'Escala 5x2 (outra aba)', exact: true }).waitFor();
      await other.close();

      await page.getByRole('button', { name: 'Salvar' }).click();
      const stale = page.getByRole('alert');
      await expect.poll(() => stale.innerText()).toContain('Não foi possível atualizar a escala de trabalho.');
      expect(await stale.innerText()).toContain('Outra pessoa alterou este registro');
      expect((await api.all('scales')).find((one) => one.id === record.id)?.value).toBe('Escala 5x2 (outra aba)');

      await stale.getByRole('button', { name: 'Recarregar o registro' }).click();
      const reloaded = rowsOf(page, 'Escalas de trabalho').getByRole('textbox');
      await expect.poll(() => reloaded.inputValue()).toBe('Escala 5x2 (outra aba)');
      await page.getByText('O texto que você tinha digitado era “Escala 5x2 (esta aba)”').waitFor();
      await reloaded.fill('Escala 5x2 (combinada)');
      await page.getByRole('button', { name: 'Salvar' }).click();
      await rowsOf(page, 'Escalas de trabalho').getByRole('cell', { name: 'Escala 5x2 (combinada)', exact: true }).waitFor();
      expect((await api.all('scales')).find((one) => one.id === record.id)?.value).toBe('Escala 5x2 (combinada)');
    });

    it('forgets the key on "Sair", also after a reload', async () => {
      await page.getByRole('button', { name: 'Sair' }).click();
      await page.getByLabel('Chave de API').waitFor();
      expect(await page.evaluate('sessionStorage.length')).toBe(0);
      await page.reload();
      await page.getByLabel('Chave de API').waitFor();
    });
  });
});
