import { kindsWithDepartments, warnWithoutChromium } from '@workplan/testing';
import { type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { parseConfig } from './config.js';
import { startService, type RunningService } from './service.js';
import { consoleKey, describeInChromium, openConsoleBrowser, rowsOf, signIn, type ConsoleBrowser } from './testing/console-session.js';

// The console's tabs are the kinds the service serves, read from it when the page starts:
// a service given a third kind (a test-only one) shows a tab for it, and its words agree
// with the kind's own nouns and gender, with nothing of the console's changed.

warnWithoutChromium('console-kinds.test.ts', "the console's tabs of the kinds the service serves");

describeInChromium("the console's tabs, for the kinds the service serves", () => {
  let service: RunningService;
  let session: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    const env = { PORT: '0', HOST: '127.0.0.1', API_KEYS: `${consoleKey} name=Operador`, STORAGE: 'memory', LOG_LEVEL: 'silent' };
    service = await startService(parseConfig(env), kindsWithDepartments);
    session = await openConsoleBrowser(service.url);
    page = await session.newTab();
    await signIn(page, service.url);
  }, 60_000);

  afterEach(() => {
    for (const watch of session.watches) expect(watch).toEqual({ offsite: [], errors: [], policyViolations: [] });
  });

  afterAll(async () => {
    await session.browser.close();
    await service.close();
  });

  it('shows a tab for each kind, the third one too, and speaks of its records in its own words', async () => {
    const tabs = page.getByRole('navigation', { name: 'Cadastros' }).getByRole('link');
    expect(await tabs.allTextContents()).toEqual(['Escalas de trabalho', 'Centros de custo', 'Áreas']);
    await tabs.nth(2).click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#/areas');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Áreas');
    await page.getByLabel('Nova área').fill('Logística');
    await page.getByRole('button', { name: 'Criar' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Área “Logística” criada.');
    await expect.poll(() => rowsOf(page, 'Áreas').count()).toBe(1);
    const answer = await fetch(`${service.url}/api/v1/departments`, { headers: { KEY: consoleKey } });
    expect(((await answer.json()) as { data: { name: string }[] }).data.map((record) => record.name)).toEqual(['Logística']);
  });
});
