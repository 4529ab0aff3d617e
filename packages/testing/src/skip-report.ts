import { type UserConsoleLog } from 'vitest';
import { type Reporter, type TestModule } from 'vitest/node';
import { chromiumPath, HOW_TO_GET_CHROMIUM, NO_CHROMIUM_MARK } from './chromium.js';
import { HOW_TO_GET_PROMTOOL, NO_PROMTOOL_MARK, promtoolPath } from './promtool.js';

/** A group of tests that did not run for want of one thing, and what brings it. */
interface NotRun {
  readonly tests: number;
  readonly files: number;
  readonly what: string;
  readonly why: string;
  readonly remedy: string;
}

/**
 * A reporter that ends a run with each group of tests that did not run for want of
 * something on the machine, how many, and what brings it: the MongoDB integration tests
 * (no MongoDB server, or no FerretDB to stop and start), the browser tests (no
 * Chromium) and the alerting rules' tests (no promtool). The summary above counts them among the skipped, where they are easy to miss,
 * and the browser's warning is in the middle of the log. Silent when every such test ran.
 * Under CI=true each group fails the run already (a test of its own throws).
 */
export class SkipReport implements Reporter {
  /** The test files that warned their browser tests would not run (`warnWithoutChromium`). */
  readonly #withoutChromium = new Set<string>();
  /** The test files that warned their rules' tests would not run. */
  readonly #withoutPromtool = new Set<string>();

  onUserConsoleLog(log: UserConsoleLog): void {
    if (log.taskId === undefined) return;
    if (log.content.includes(NO_CHROMIUM_MARK)) this.#withoutChromium.add(log.taskId);
    if (log.content.includes(NO_PROMTOOL_MARK)) this.#withoutPromtool.add(log.taskId);
  }

  onTestRunEnd(testModules: readonly TestModule[]): void {
    const groups = [
      notRunIn(testModules.filter((module) => module.moduleId.endsWith('.int.test.ts')), {
        what: 'MongoDB integration tests',
        why: 'no MongoDB server: MONGODB_URI unset and no Docker engine for Testcontainers; or no FerretDB to stop and start',
        remedy: 'Run them with: bash scripts/test-db.sh pnpm test (a local FerretDB, no Docker), or set MONGODB_URI, or start Docker.',
      }),
      notRunIn(testModules.filter((module) => this.#withoutChromium.has(module.id)), {
        what: 'browser tests',
        why: `no Chromium at ${chromiumPath}`,
        remedy: HOW_TO_GET_CHROMIUM,
      }),
      notRunIn(testModules.filter((module) => this.#withoutPromtool.has(module.id)), {
        what: 'alerting rules tests',
        why: `no ${promtoolPath}`,
        remedy: HOW_TO_GET_PROMTOOL,
      }),
    ].filter((group) => group.tests > 0);
    if (groups.length === 0) return;
    const line = '!'.repeat(80);
    const told = groups.map(({ tests, files, what, why, remedy }) => `${tests} ${what} in ${files} ${files === 1 ? 'file' : 'files'} did NOT run (${why}).\n  ${remedy}`);
    process.stdout.write(`\n${line}\n${told.join('\n')}\nUnder CI=true each of these is a failure.\n${line}\n`);
  }
}

function notRunIn(modules: readonly TestModule[], group: Omit<NotRun, 'tests' | 'files'>): NotRun {
  let tests = 0;
  let files = 0;
  for (const module of modules) {
    const notRun = [...module.children.allTests('skipped')].length;
    tests += notRun;
    if (notRun > 0) files += 1;
  }
  return { tests, files, ...group };
}
