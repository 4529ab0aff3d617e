/** @workplan/console: the operator console, a page in Brazilian Portuguese built into static files for the app to serve. */
import { fileURLToPath } from 'node:url';

/**
 * The folder of the built console (`index.html` and its `assets/`), made by `pnpm build`;
 * the same path from the source (tests) and from `dist`, both one level under the package.
 */
export const consoleDirectory: string = fileURLToPath(new URL('../dist/site/', import.meta.url));

/** The path the console is built for and served at; its pages link to their assets under it. */
export const consolePath = '/console/';
