import { once } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumIsRequired, chromiumPath, hasChromium, launchChromium, warnWithoutChromium, watchPage, type PageWatch } from '@workplan/testing';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';
import { startService, type RunningService } from './service.js';

const key = 'docs-page-key-0123456789';
const screenshot = fileURLToPath(new URL('../../../test-output/docs-page.png', import.meta.url));

warnWithoutChromium('docs-page.test.ts', 'the /docs page');

describe('the /docs page', { timeout: 60_000 }, () => {
  it.runIf(chromiumIsRequired)('has a Chromium to run in (CI=true)', () => {
    throw new Error(`${chromiumPath} is missing: apt-get install -y chromium`);
  });

  describe.runIf(hasChromium)('in Chromium', () => {
    let service: RunningService | undefined;
    let browser: Browser | undefined;
    let url = '';
    let page: Page;
    // The page must work offline (anything it asks of another host is recorded and refused),
    // and under its Content-Security-Policy (a violation is recorded).
    let watch: PageWatch;

    beforeAll(async () => {
      service = await startService(parseConfig({ PORT: '0', HOST: '127.0.0.1', API_KEYS: key, STORAGE: 'memory', LOG_LEVEL: 'silent' }));
      url = service.url;
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      watch = await watchPage(page, url);
      await page.goto(`${url}/docs`);
      await page.locator('.opblock').first().waitFor();
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await service?.close();
    });

    it('lists every operation a person calls, from the service itself, and no HEAD or OPTIONS', async () => {
      const document = (await (await fetch(`${url}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { operationId?: string }>>;
      };
      const operations = Object.values(document.paths).flatMap((item) =>
        Object.entries(item).flatMap(([method, operation]) => (operation.operationId === undefined ? [] : [{ method, id: operation.operationId }])),
      );
      const shown = operations.filter(({ method }) => method !== 'head' && method !== 'options');
      const hidden = operations.filter(({ method }) => method === 'head' || method === 'options');
      // The document keeps them for clients and tools; the page leaves them out.
      expect(hidden.length).toBeGreaterThan(0);
      expect(shown.map(({ id }) => id)).toEqual(expect.arrayContaining(['createWorkSchedule', 'listCostCentersPage', 'findCostCenter']));
      for (const { id } of shown) {
        await expect.soft(page.locator(`.opblock[id$="-${id}"]`).count(), id).resolves.toBe(1);
      }
      for (const { id } of hidden) {
        await expect.soft(page.locator(`.opblock[id$="-${id}"]`).count(), id).resolves.toBe(0);
      }
      await expect(page.locator('.opblock').count()).resolves.toBe(shown.length);
      await expect(page.locator('.opblock-head, .opblock-options').count()).resolves.toBe(0);
      const summaries = await page.locator('.opblock-summary-path').all();
      const shownPaths = await Promise.all(summaries.map((summary) => summary.getAttribute('data-path')));
      for (const path of ['/api/v1/scale', '/api/v1/scale/{id}', '/api/v1/scales/{skip}/{limit}', '/api/v1/costCenter', '/api/v1/costCenters']) {
        expect(shownPaths).toContain(path);
      }
      expect(watch).toEqual({ offsite: [], errors: [], policyViolations: [] });
    });

    it('reads in Portuguese with the article of each resource: a escala, o centro de custo', async () => {
      const summaryOf = (id: string) => page.locator(`.opblock[id$="-${id}"] .opblock-summary-description`).innerText();
      await expect(summaryOf('createWorkSchedule')).resolves.toBe('Cria uma escala de trabalho');
      await expect(summaryOf('createCostCenter')).resolves.toBe('Cria um centro de custo');
      await expect(summaryOf('listCostCenters')).resolves.toBe('Lista os centros de custo (até o máximo da página)');
      await expect(summaryOf('listCostCentersUpTo')).resolves.toBe('Lista os primeiros {limit} centros de custo');
      await expect(summaryOf('listWorkSchedulesUpTo')).resolves.toBe('Lista as primeiras {limit} escalas de trabalho');
    });

    it('creates a work schedule with the key given in "Authorize"', async () => {
      await page.locator('.auth-wrapper .authorize').click();
      const dialog = page.locator('.dialog-ux .modal-ux');
      await dialog.locator('input').first().fill(key);
      await dialog.locator('button.modal-btn.authorize', { hasText: 'Authorize' }).click();
      await dialog.locator('button.btn-done', { hasText: 'Close' }).click();

      const operation = page.locator('.opblock[id$="-createWorkSchedule"]');
      await operation.locator('.opblock-summary').click();
      // The page opens with "Try it out" already on (tryItOutEnabled); press it only when offered.
      const tryItOut = operation.locator('button.try-out__btn', { hasText: 'Try it out' });
      if (await tryItOut.isVisible()) await tryItOut.click();
      await operation.locator('textarea.body-param__text').fill(JSON.stringify({ value: 'Escala pelo navegador' }));
      await operation.getByRole('button', { name: 'Execute' }).click();

      const live = operation.locator('.live-responses-table');
      await expect.poll(() => live.locator('tr.response .response-col_status').first().innerText(), { timeout: 10_000 }).toBe('201');
      const shown = await live.locator('tr.response .response-col_description .microlight').first().innerText();
      const body = JSON.parse(shown) as { success: unknown; data: { id: unknown; value: unknown } };
      expect(body).toMatchObject({ success: true, data: { value: 'Escala pelo navegador' } });
      expect(body.data.id).toMatch(/^[0-9a-f-]{36}$/u);
      // The page really created it, with the key it was given.
      const listed = (await (await fetch(`${url}/api/v1/scales`, { headers: { KEY: key } })).json()) as { data: unknown[] };
      expect(listed.data).toEqual([body.data]);

      await mkdir(dirname(screenshot), { recursive: true });
      await page.screenshot({ path: screenshot, fullPage: true });
      expect(watch).toEqual({ offsite: [], errors: [], policyViolations: [] });
      // The key was kept in the page alone: nothing in the browser's storage holds it.
      expect(await page.evaluate('[localStorage.length, sessionStorage.length, document.cookie]')).toEqual([0, 0, '']);
    });

    it('forgets the key when the page is reloaded: it was never stored', async () => {
      await expect(page.locator('.auth-wrapper .authorize.locked').count()).resolves.toBe(1);
      await page.reload();
      await page.locator('.opblock').first().waitFor();
      await expect(page.locator('.auth-wrapper .authorize.unlocked').count()).resolves.toBe(1);
      expect(await page.evaluate('[localStorage.length, sessionStorage.length]')).toEqual([0, 0]);
      expect(watch).toEqual({ offsite: [], errors: [], policyViolations: [] });
    });

    it('refuses to be shown inside another site\'s frame', async () => {
      const foreign = await listen(createServer((_req, res) => {
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.end(`<!doctype html><title>outra</title><iframe id="docs" src="${url}/docs"></iframe>`);
      }));
      const framing = await browser?.newPage();
      try {
        const refused: string[] = [];
        framing?.on('console', (message) => refused.push(message.text()));
        await framing?.goto(foreign.url);
        await expect.poll(() => refused.join('\n')).toContain("frame-ancestors 'none'");
        const frame = framing?.frames().find((one) => one !== framing.mainFrame());
        expect(frame?.url()).not.toBe(`${url}/docs`);
        await expect(frame?.locator('#swagger-ui').count()).resolves.toBe(0);
      } finally {
        await framing?.close();
        await foreign.close();
      }
    });
  });
});

/** `server` listening on a free loopback port: another origin than the service's. */
async function listen(server: Server): Promise<{ readonly url: string; close(): Promise<void> }> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
