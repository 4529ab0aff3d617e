// Screenshots of the operator console for the README: `pnpm build && node scripts/screenshots.mjs`.
// Runs the built app on the memory store with sample records, drives Debian's Chromium
// (CHROMIUM_PATH, else /usr/bin/chromium) in a Brazilian locale and time zone, and writes
// docs/console/*.png. Nothing leaves the machine: the app listens on loopback only.
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { chromium } from 'playwright-core';

const root = new URL('..', import.meta.url);
const out = new URL('docs/console/', root);
const key = 'screenshot-key-0123456789';
const scales = ['12x36', '12x36 noturno', '6x1', '5x2 comercial', '4x2', '24x72 plantão'];
const costCenters = ['Financeiro', 'Recursos Humanos', 'Operações — São Paulo', 'Manutenção elétrica', 'Jurídico', 'Tecnologia da Informação'];

const app = spawn(process.execPath, [new URL('packages/app/dist/main.js', root).pathname], {
  env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', STORAGE: 'memory', API_KEYS: key, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
  let printed = '';
  app.stdout.on('data', (chunk) => {
    printed += chunk;
    const match = /listening on (http:\S+)/u.exec(printed);
    if (match) resolve(match[1]);
  });
  app.once('exit', (code) => reject(new Error(`the app exited (${code}) before listening; run pnpm build first`)));
});

const create = (path, body) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { KEY: key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
for (const value of scales) await create('/api/v1/scale', { value });
for (const title of costCenters) await create('/api/v1/costCenter', { title });

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const context = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', viewport: { width: 1100, height: 760 } });
  const page = await context.newPage();
  await mkdir(out, { recursive: true });
  const shot = (name, options = {}) => page.screenshot({ path: new URL(`${name}.png`, out).pathname, ...options });

  await page.goto(`${url}/`);
  await page.getByLabel('Chave de API').fill('uma-chave-errada-0000');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('alert').waitFor();
  await shot('key');

  await page.getByLabel('Chave de API').fill(key);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('cell', { name: '24x72 plantão', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Editar “6x1”' }).click();
  await page.getByRole('textbox', { name: 'Editar “6x1”' }).fill('6x1 com folga aos domingos');
  await shot('list', { fullPage: true });

  // The same record changed from elsewhere meanwhile: the save is refused (412) and a reload offered.
  const listed = await (await fetch(`${url}/api/v1/scales`, { headers: { KEY: key } })).json();
  const sixByOne = listed.data.find((record) => record.value === '6x1');
  await fetch(`${url}/api/v1/scale/${sixByOne.id}`, { method: 'PUT', headers: { KEY: key, 'content-type': 'application/json' }, body: '{"value":"6x1 (revisada)"}' });
  await page.getByRole('button', { name: 'Salvar' }).click();
  await page.getByRole('button', { name: 'Recarregar o registro' }).waitFor();
  await shot('stale-edit', { clip: { x: 0, y: 0, width: 1100, height: 760 } });

  await page.getByRole('link', { name: 'Centros de custo' }).click();
  await page.getByLabel('Novo centro de custo').fill('financeiro');
  await page.getByRole('button', { name: 'Criar' }).click();
  await page.getByRole('link', { name: 'Abrir o registro que já usa este valor' }).waitFor();
  await shot('conflict');

  const file = ['Título', 'Compras', 'Logística', 'x'.repeat(201), 'Financeiro', 'Comercial — Nordeste', 'Auditoria interna'].join('\r\n');
  await page.getByLabel('Importar CSV').setInputFiles({ name: 'centros.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${file}`) });
  await page.getByRole('button', { name: 'Importar 6 linhas' }).click();
  const report = page.getByRole('region', { name: 'Relatório da importação' });
  await report.waitFor();
  await page.getByRole('region', { name: 'Planilhas' }).screenshot({ path: new URL('import.png', out).pathname });

  await page.setViewportSize({ width: 360, height: 760 });
  await page.goto(`${url}/console/#/escalas`);
  await page.reload();
  await page.getByRole('cell', { name: '12x36', exact: true }).waitFor();
  await page.evaluate('scrollTo(0, 0)');
  await shot('narrow');
  console.log(`screenshots written to ${out.pathname}`);
} finally {
  await browser.close();
  app.kill('SIGTERM');
}
