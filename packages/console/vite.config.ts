import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The console is served by the app at /console/ (packages/console/src/index.ts says where
// the files are); `pnpm build` runs this after `tsc -b` has checked the sources.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  // Preact's JSX runtime, without a plugin (and without Babel): Vite's own transform does it.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist/site',
    emptyOutDir: true,
    // Under the page's Content-Security-Policy nothing may be inline: no data: URL for a small asset either.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
  },
});
