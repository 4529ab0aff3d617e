// Prints how many tests ran per Vitest project from its JSON report, so CI's log ends with
// what ran and shows that the integration tests really ran (a skip there would be a silent hole).
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2] ?? 'test-output/vitest.json', 'utf8'));
const empty = () => ({ files: 0, passed: 0, failed: 0, skipped: 0 });
const counts = { unit: empty(), integration: empty() };
for (const file of report.testResults) {
  const project = counts[file.name.endsWith('.int.test.ts') ? 'integration' : 'unit'];
  project.files += 1;
  for (const test of file.assertionResults) {
    const state = test.status === 'passed' ? 'passed' : test.status === 'failed' ? 'failed' : 'skipped';
    project[state] += 1;
  }
}
const total = empty();
for (const [name, c] of Object.entries(counts)) {
  console.log(`${name}: ${c.files} files, ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
  for (const key of Object.keys(total)) total[key] += c[key];
}
// The one plain line of totals CI reads: it must stay the last line of the log.
console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
if (counts.integration.passed === 0) {
  console.error('no integration test ran');
  process.exitCode = 1;
}
if (total.failed > 0) process.exitCode = 1;
