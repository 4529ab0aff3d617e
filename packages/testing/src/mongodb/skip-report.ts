import { type Reporter, type TestModule } from 'vitest/node';

/**
 * A reporter that ends a run with how many integration tests did not run, and how to run
 * them: without a MongoDB server (or FerretDB, for the outage tests) they are skipped, and
 * the summary above counts them among the skipped, where they are easy to miss. Silent
 * when every integration test ran.
 */
export class MongoSkipReport implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    let tests = 0;
    let files = 0;
    for (const module of testModules.filter((candidate) => candidate.moduleId.endsWith('.int.test.ts'))) {
      const notRun = [...module.children.allTests('skipped')].length;
      tests += notRun;
      if (notRun > 0) files += 1;
    }
    if (tests === 0) return;
    const line = '!'.repeat(80);
    process.stdout.write(
      `\n${line}\n${tests} integration tests in ${files} files did NOT run (no MongoDB server, or no FerretDB to stop and start).\n` +
        `Run them with: bash scripts/test-db.sh pnpm test\n${line}\n`,
    );
  }
}
