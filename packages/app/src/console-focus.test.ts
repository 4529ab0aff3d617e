import { warnWithoutChromium } from '@workplan/testing';
import { type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeInChromium, focusedName, openConsole, rowsOf, signIn, tabTo, type OpenedConsole } from './testing/console-session.js';

// Where the keyboard focus goes once a button has done its work, in Debian's Chromium: never
// back to the top of the page (<body>), where a keyboard or screen reader user loses the place.

warnWithoutChromium('console-focus.test.ts', 'where the console\'s keyboard focus lands');

describeInChromium('the console\'s keyboard focus after each operation, in Chromium', () => {
  let opened: OpenedConsole;
  let page: Page;

  beforeAll(async () => {
    opened = await openConsole();
    page = opened.page;
    await signIn(page, opened.url);
  });

  afterEach(() => {
    for (const watch of opened.session.watches) expect(watch).toEqual({ offsite: [], errors: [], policyViolations: [] });
  });

  afterAll(async () => {
    await opened.close();
  });

  const focused = () => focusedName(page);
  const openScales = async () => {
    await page.goto('about:blank');
    await page.goto(`${opened.url}/console/#/escalas`);
    await page.getByRole('heading', { level: 1, name: 'Escalas de trabalho' }).waitFor();
  };

  it('goes back to the new record\'s field after “Criar”, refused or done', async () => {
    await opened.api.create('scale', 'Turno A');
    await openScales();
    await page.getByLabel('Nova escala de trabalho').fill('turno a');
    await tabTo(page, 'Criar');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').getByText('Já cadastrada como “Turno A”.').waitFor();
    await expect.poll(focused).toBe('Nova escala de trabalho');

    await page.keyboard.press('Control+A');
    await page.keyboard.type('Turno B');
    await tabTo(page, 'Criar');
    await page.keyboard.press('Enter');
    await rowsOf(page, 'Escalas de trabalho').getByRole('cell', { name: 'Turno B', exact: true }).waitFor();
    await expect.poll(focused).toBe('Nova escala de trabalho');
  });

  it('stays in the edit form when “Salvar” is refused because someone changed the record (412)', async () => {
    const record = await opened.api.create('scale', 'Turno C');
    await openScales();
    await page.getByRole('button', { name: 'Editar “Turno C”' }).click();
    // The form opens once the record is read again: the colleague's change must come after.
    await page.getByRole('textbox', { name: 'Editar “Turno C”' }).waitFor();
    await opened.api.call('PUT', `/api/v1/scale/${record.id}`, { value: 'Turno C (outra pessoa)' });
    await tabTo(page, 'Salvar');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Recarregar o registro' }).waitFor();
    await expect.poll(focused).toBe('Editar “Turno C”');
  });

  it('goes back to “Excluir” when the delete dialog closes with Escape or “Cancelar”', async () => {
    await opened.api.create('scale', 'Turno D');
    await openScales();
    const dialog = page.getByRole('dialog', { name: 'Excluir registro' });
    for (const close of ['Escape', 'Cancelar']) {
      await page.getByRole('button', { name: 'Excluir “Turno D”' }).focus();
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      if (close === 'Cancelar') await dialog.getByRole('button', { name: 'Cancelar' }).focus();
      await page.keyboard.press(close === 'Escape' ? 'Escape' : 'Enter');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(focused, { message: close }).toBe('Excluir “Turno D”');
    }
  });

  it('stays in the delete dialog when the delete is refused (412), and after “Recarregar o registro”', async () => {
    const record = await opened.api.create('scale', 'Turno E');
    await openScales();
    await page.getByRole('button', { name: 'Excluir “Turno E”' }).click();
    const dialog = page.getByRole('dialog', { name: 'Excluir registro' });
    await dialog.waitFor();
    await opened.api.call('PUT', `/api/v1/scale/${record.id}`, { value: 'Turno E (outra pessoa)' });
    await dialog.getByRole('button', { name: 'Excluir', exact: true }).focus();
    await page.keyboard.press('Enter');
    const reload = dialog.getByRole('button', { name: 'Recarregar o registro' });
    await reload.waitFor();
    // Runs in the page, whose DOM types this package does not have: the two members it uses.
    type Node = { contains(other: unknown): boolean; ownerDocument: { activeElement: unknown } };
    const inDialog = () => dialog.evaluate((element: Node) => element.contains(element.ownerDocument.activeElement));
    await expect.poll(inDialog).toBe(true);

    await reload.focus();
    await page.keyboard.press('Enter');
    await dialog.getByText('Excluir a escala de trabalho “Turno E (outra pessoa)”?', { exact: false }).waitFor();
    await expect.poll(inDialog).toBe(true);
    await page.keyboard.press('Escape');
  });

  it('goes to the import report once an import ends', async () => {
    await openScales();
    await page.getByLabel('Importar CSV').setInputFiles({ name: 'escalas.csv', mimeType: 'text/csv', buffer: Buffer.from('Turno F\nTurno G\n') });
    await tabTo(page, 'Importar 2 linhas');
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'Relatório da importação' }).getByText('2 criadas, 0 já existiam, 0 inválidas.', { exact: true }).waitFor();
    await expect.poll(focused).toBe('Relatório da importação');
  });

  it('stays on “Exportar CSV” while it exports and after', async () => {
    await openScales();
    await tabTo(page, 'Exportar CSV');
    const downloading = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    await downloading;
    await page.getByText(/registros exportados para/u).waitFor();
    await expect.poll(focused).toBe('Exportar CSV');
  });

  it('goes to the key field after “Sair”, and back to it after a wrong key sent from “Entrar”', async () => {
    await openScales();
    await tabTo(page, 'Sair');
    await page.keyboard.press('Enter');
    await page.getByLabel('Chave de API').waitFor();
    await expect.poll(focused).toBe('Chave de API');

    await page.keyboard.type('not-the-key-000000000');
    await tabTo(page, 'Entrar');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').waitFor();
    await expect.poll(focused).toBe('Chave de API');
  });
});
