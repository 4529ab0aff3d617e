import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', 'test-output/**'] },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Package configs leave tests out of the build; tsconfig.test.json takes them in. The
        // console's browser sources have a config of their own (DOM, JSX), bundled by Vite.
        project: ['./tsconfig.test.json', './packages/*/tsconfig.json', './packages/console/tsconfig.web.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // An async method that never awaits still turns a throw into a rejection, as ports promise.
      '@typescript-eslint/require-await': 'off',
      // Express tells error handlers by their arity, so an unused `_next` must stay.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    // Plain scripts run on Node; these are the globals they use.
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly', fetch: 'readonly', Buffer: 'readonly' } },
  },
);
