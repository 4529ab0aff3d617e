// Vitest 4+ reads `test.projects`, not workspace files; this keeps the design's file name.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SkipReport } from './packages/testing/src/skip-report.js';

// Tests run against each package's TypeScript source, so they need no build first.
const sourceOfWorkspacePackages = {
  find: /^@workplan\/([a-z-]+)$/,
  replacement: fileURLToPath(new URL('./packages/$1/src/index.ts', import.meta.url)),
};
// The test helpers that find a MongoDB server, a subpath of the private testing package.
const sourceOfMongoTestHelpers = {
  find: /^@workplan\/testing\/mongodb$/,
  replacement: fileURLToPath(new URL('./packages/testing/src/mongodb/index.ts', import.meta.url)),
};

// The MongoDB lease's arithmetic, a subpath that loads no driver, which the configuration checks against.
const sourceOfMongoLease = {
  find: /^@workplan\/adapter-mongodb\/lease$/,
  replacement: fileURLToPath(new URL('./packages/adapter-mongodb/src/lease.ts', import.meta.url)),
};

export default defineConfig({
  resolve: { alias: [sourceOfWorkspacePackages, sourceOfMongoTestHelpers, sourceOfMongoLease] },
  test: {
    // The default summary, then a last word on each group of tests that did not run, and what brings it.
    reporters: ['default', new SkipReport()],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**', '**/dist/**'],
          // A safety net for a test that hangs, not a measure of speed: the tests wait for
          // answers and events, and a busy machine answers later (issue 52, point 9; speed is
          // pnpm bench's). Vitest's default of 5 s failed tests of a few dozen requests on one.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['packages/*/src/**/*.int.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          // One MongoDB server for the run (MONGODB_URI, else Testcontainers), handed to the files by `inject`.
          globalSetup: [fileURLToPath(new URL('./packages/testing/src/mongodb/global-setup.ts', import.meta.url))],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
