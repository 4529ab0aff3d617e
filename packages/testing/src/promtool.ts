import { spawnSync } from 'node:child_process';

// The alerting rules' tests run Debian's promtool (CI installs the `prometheus` package);
// PROMTOOL_PATH points elsewhere. Kept apart, as chromium.ts is, so that the run's skip
// report can name it too.

/** Which promtool, and whether it answers. */
export const promtoolPath = process.env.PROMTOOL_PATH ?? 'promtool';
export const hasPromtool = spawnSync(promtoolPath, ['--version']).error === undefined;

/** How to bring a promtool, in a line. */
export const HOW_TO_GET_PROMTOOL = 'Install Debian\'s prometheus package (as root: apt-get install -y prometheus), or set PROMTOOL_PATH to a promtool.';

/** In the warning of a test file whose rules' tests do not run, by which the skip report knows the file. */
export const NO_PROMTOOL_MARK = '(not run: no promtool)';
