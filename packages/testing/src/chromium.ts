import { existsSync } from 'node:fs';

// Browser tests run Debian's Chromium (CI installs it with apt), never a browser that
// Playwright downloads. CHROMIUM_PATH points elsewhere: another install, or a missing path
// to see what happens without one. Kept apart from the browser helpers, which load
// playwright-core, so that the run's skip report can say it too.

/** Where Chromium is, and whether it is there. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(chromiumPath);

/** How to bring a Chromium, in a line. */
export const HOW_TO_GET_CHROMIUM = 'Install Debian\'s (as root: apt-get install -y chromium), or set CHROMIUM_PATH to a Chromium.';

/** Begins the warning of a test file whose browser tests do not run, by which the skip report knows the file. */
export const NO_CHROMIUM_MARK = '(not run: no Chromium)';
