#!/usr/bin/env node
// Writes openapi.json at the repository root from the one definition in
// packages/adapter-express/src/openapi. Run after `pnpm build` (it reads the built package):
//   pnpm build && node scripts/write-openapi.mjs
// adapter-express's openapi.test.ts fails while the file and the definition differ.
import { existsSync, writeFileSync } from 'node:fs';

const built = new URL('../packages/adapter-express/dist/index.js', import.meta.url);
if (!existsSync(built)) {
  console.error('write-openapi: packages/adapter-express is not built; run `pnpm build` first');
  process.exit(1);
}
const { openApiDocument } = await import(built.href);
const { seedKinds } = await import(new URL('../packages/core/dist/index.js', import.meta.url).href);
const target = new URL('../openapi.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(openApiDocument(Object.values(seedKinds)), null, 2)}\n`);
console.log(`write-openapi: wrote ${target.pathname}`);
