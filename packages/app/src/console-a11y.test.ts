import { chromiumIsRequired, chromiumPath, expectAccessible, hasChromium, warnWithoutChromium, withAxe, type AppProcess } from '@workplan/testing';
import { type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, consoleKey, openConsoleBrowser, rowsOf, runConsoleApp, signIn, tabTo, type ConsoleBrowser } from './testing/console-session.js';

// Each screen of the console checked by axe-core in the page (no serious or critical
// violation), used with the keyboard alone, and read at 360 px wide.

warnWithoutChromium('console-a11y.test.ts', 'the operator console\'s accessibility');

describe('the console\'s accessibility, in Chromium', { timeout: 30_000 }, () => {
  it.runIf(chromiumIsRequired)('has a Chromium to run in (CI=true)', () => {
    throw new Error(`${chromiumPath} is missing: apt-get install -y chromium`);
  });

  describe.runIf(hasChromium)('each screen', () => {
    let app: AppProcess;
    let url = '';
    let api: ReturnType<typeof apiOf>;
    let session: ConsoleBrowser;
    let page: Page;

    beforeAll(async () => {
      app = runConsoleApp();
      url = await app.listening();
      api = apiOf(url);
      session = await openConsoleBrowser(url);
      page = await session.newTab();
      await withAxe(page);
    });

    afterEach(() => {
      for (const watch of session.watches) expect(watch).toEqual({ offsite: [], errors: [], policyViolations: [] });
    });

    afterAll(async () => {
      await session.browser.close();
      await app.stop();
    });

    it('the key form, empty and with a wrong key refused', async () => {
      await page.goto(`${url}/`);
      await page.getByLabel('Chave de API').waitFor();
      await expectAccessible(page, 'key form');
      await page.getByLabel('Chave de API').fill('not-the-key-000000000');
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.getByRole('alert').waitFor();
      await expectAccessible(page, 'key form, key refused');
    });

    it('is used with the keyboard alone: sign in, create, edit in place, delete, change tab', async () => {
      await page.goto(`${url}/console/`);
      await tabTo(page, 'Chave de API');
      await page.keyboard.type(consoleKey);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Escalas de trabalho' }).waitFor();

      await tabTo(page, 'Nova escala de trabalho');
      await page.keyboard.type('Pelo teclado');
      await page.keyboard.press('Enter');
      const rows = rowsOf(page, 'Escalas de trabalho');
      await rows.getByRole('cell', { name: 'Pelo teclado', exact: true }).waitFor();

      await tabTo(page, 'Editar “Pelo teclado”');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate('document.activeElement?.value')).toBe('Pelo teclado');
      await page.keyboard.press('End');
      await page.keyboard.type(' e Enter');
      await page.keyboard.press('Enter');
      await rows.getByRole('cell', { name: 'Pelo teclado e Enter', exact: true }).waitFor();

      await tabTo(page, 'Excluir “Pelo teclado e Enter”');
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Excluir registro' });
      await dialog.waitFor();
      await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Cancelar');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'detached' });
      expect(await api.all('scales')).toEqual([]);
      await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Registros cadastrados');

      await tabTo(page, 'Centros de custo');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Centros de custo' }).waitFor();
    });

    it('the list, an edit in place, a refused edit (412), a field\'s issue, and the delete dialog', async () => {
      for (const text of ['12x36', '6x1', '5x2']) await api.create('scale', text);
      await page.goto(`${url}/console/#/escalas`);
      await page.reload();
      await rowsOf(page, 'Escalas de trabalho').getByRole('cell', { name: '5x2', exact: true }).waitFor();
      await expectAccessible(page, 'work schedules list');

      await page.getByRole('button', { name: 'Editar “6x1”' }).click();
      await expectAccessible(page, 'edit in place');
      const [, sixByOne] = await api.all('scales');
      await api.call('PUT', `/api/v1/scale/${sixByOne?.id ?? ''}`, { value: '6x1 (outra pessoa)' });
      await page.getByRole('button', { name: 'Salvar' }).click();
      await page.getByRole('button', { name: 'Recarregar o registro' }).waitFor();
      await expectAccessible(page, 'edit refused, record changed meanwhile');
      await page.getByRole('button', { name: 'Cancelar' }).click();

      await page.getByLabel('Nova escala de trabalho').fill('   ');
      await page.getByRole('button', { name: 'Criar' }).click();
      await page.getByRole('alert').waitFor();
      await expectAccessible(page, 'create refused, issue beside the field');

      await page.getByRole('button', { name: 'Excluir “12x36”' }).click();
      await page.getByRole('dialog', { name: 'Excluir registro' }).waitFor();
      await expectAccessible(page, 'delete confirmation');
      await page.keyboard.press('Escape');
    });

    it('a conflict, the record it links to, and an import report', async () => {
      await api.create('costCenter', 'Financeiro');
      await page.goto(`${url}/console/#/centros-de-custo`);
      await page.getByLabel('Novo centro de custo').fill('financeiro');
      await page.getByRole('button', { name: 'Criar' }).click();
      await page.getByRole('link', { name: 'Abrir o registro que já usa este valor' }).click();
      await page.getByRole('region', { name: 'Registro aberto' }).getByRole('cell', { name: 'Financeiro', exact: true }).waitFor();
      await expectAccessible(page, 'conflict and opened record');

      const file = ['Recursos Humanos', 'x'.repeat(201), 'Financeiro', 'Jurídico'].join('\n');
      await page.getByLabel('Importar CSV').setInputFiles({ name: 'centros.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
      await page.getByRole('button', { name: 'Importar 4 linhas' }).click();
      await page.getByRole('region', { name: 'Relatório da importação' }).getByText('2 criados, 1 já existia, 1 inválido.', { exact: true }).waitFor();
      // 201 characters without a space wrap in their cell rather than widen the page.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280);
      await expectAccessible(page, 'import report');
    });

    it('shows the delete dialog\'s question whole, wrapped inside the dialog, at desktop and at phone width', async () => {
      const long = 'Manutenção elétrica e hidráulica do centro de distribuição de Campinas, turno da noite';
      const unbroken = 'x'.repeat(200);
      for (const text of [long, unbroken]) await api.create('costCenter', text);
      /** The question's text and whether any of it lies outside its box, the dialog's, or the screen. */
      const questionOf = async (text: string) => {
        await page.getByRole('button', { name: `Excluir “${text}”` }).click();
        const dialog = page.getByRole('dialog', { name: 'Excluir registro' });
        const question = dialog.getByText(/^Excluir o centro de custo/u);
        const [box, frame] = await Promise.all([question.boundingBox(), dialog.boundingBox()]);
        const width = page.viewportSize()?.width ?? 0;
        const overflows = (element: { readonly scrollWidth: number; readonly clientWidth: number }) => element.scrollWidth > element.clientWidth;
        const seen = {
          text: await question.innerText(),
          questionOverflows: await question.evaluate(overflows),
          dialogOverflows: await dialog.evaluate(overflows),
          insideDialog: box !== null && frame !== null && box.x >= frame.x && box.x + box.width <= frame.x + frame.width && box.y + box.height <= frame.y + frame.height,
          onScreen: frame !== null && frame.x >= 0 && frame.x + frame.width <= width,
        };
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        return seen;
      };
      for (const [width, height] of [[1280, 800], [360, 780]] as const) {
        await page.setViewportSize({ width, height });
        await page.goto(`${url}/console/#/centros-de-custo`);
        await page.reload();
        for (const text of [long, unbroken]) {
          const question = `Excluir o centro de custo “${text}”? Esta ação não pode ser desfeita.`;
          expect(await questionOf(text), `${String(width)} px, ${text.slice(0, 12)}`).toEqual({
            text: question,
            questionOverflows: false,
            dialogOverflows: false,
            insideDialog: true,
            onScreen: true,
          });
        }
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    it('wraps a long value with no space wherever a message quotes it, nothing wider than the screen at 1280 and 360 px', async () => {
      const unbroken = 'SemEspaçosMuitoLongo'.repeat(10);
      await page.goto(`${url}/console/#/escalas`);
      await page.reload();
      /** The page's width at each screen width, as it is now: each no wider than its screen. */
      const widths = async (what: string) => {
        for (const width of [1280, 360]) {
          await page.setViewportSize({ width, height: 800 });
          expect(await page.evaluate('document.documentElement.scrollWidth'), `${what} at ${String(width)} px`).toBeLessThanOrEqual(width);
        }
      };
      const field = page.getByLabel('Nova escala de trabalho');
      await field.fill(unbroken);
      await field.press('Enter');
      await page.getByText(`Escala de trabalho “${unbroken}” criada.`).waitFor();
      await widths('the status line');

      await field.fill(unbroken);
      await field.press('Enter');
      await page.getByText(`Já cadastrada como “${unbroken}”.`).waitFor();
      await widths('the conflict');

      await page.getByRole('button', { name: `Editar “${unbroken}”` }).click();
      await page.getByRole('textbox', { name: `Editar “${unbroken}”` }).waitFor();
      await widths('the edit form');
      await page.keyboard.press('Escape');
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    it('reads at 360 px wide: nothing wider than the screen, every screen still accessible', async () => {
      await page.setViewportSize({ width: 360, height: 780 });
      for (const hash of ['escalas', 'centros-de-custo']) {
        await page.goto(`${url}/console/#/${hash}`);
        await page.getByRole('navigation', { name: 'Cadastros' }).waitFor();
        await page.getByText(/registros? exibidos?/u).waitFor();
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
        // Rows shown as cards are still a table's rows and cells to a screen reader.
        const table = hash === 'escalas' ? 'Escalas de trabalho' : 'Centros de custo';
        expect(await rowsOf(page, table).first().getByRole('cell').count()).toBe(4);
        // The card's visible labels stay out of the cells' names: "12x36", not "Valor 12x36".
        const text = hash === 'escalas' ? '12x36' : 'Financeiro';
        expect(await rowsOf(page, table).getByRole('cell', { name: text, exact: true }).count()).toBe(1);
        await expectAccessible(page, `${hash} at 360 px`);
      }
      await page.getByRole('button', { name: 'Sair' }).click();
      await page.getByLabel('Chave de API').waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
      await expectAccessible(page, 'key form at 360 px');
      await signIn(page, url);
    });
  });
});
