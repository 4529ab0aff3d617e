// Prints how many tests ran per Vitest project from its JSON report, so CI's log shows
// that the integration tests really ran (a skip there would be a silent hole).
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2] ?? 'test-output/vitest.json', 'utf8'));
const counts = { unit: { passed: 0, failed: 0, skipped: 0 }, integration: { passed: 0, failed: 0, skipped: 0 } };
for (const file of report.testResults) {
  const project = file.name.endsWith('.int.test.ts') ? 'integration' : 'unit';
  for (const test of file.assertionResults) {
    const state = test.status === 'passed' ? 'passed' : test.status === 'failed' ? 'failed' : 'skipped';
    counts[project][state] += 1;
  }
}
for (const [project, c] of Object.entries(counts)) {
  console.log(`${project}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
}
if (counts.integration.passed === 0) {
  console.error('no integration test ran');
  process.exitCode = 1;
}
