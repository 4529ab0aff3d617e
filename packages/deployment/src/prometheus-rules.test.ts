import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hasPromtool, HOW_TO_GET_PROMTOOL, NO_PROMTOOL_MARK, promtoolPath } from '@workplan/testing';
import { parse } from 'yaml';
import { readRepositoryFile } from './repository-file.js';

const promtool = promtoolPath;
const promtoolIsRequired = !hasPromtool && process.env.CI === 'true';
const rulesFile = 'deploy/prometheus/alerts.yml';
const testFile = 'deploy/prometheus/alerts.test.yml';

if (!hasPromtool) {
  const line = '!'.repeat(78);
  console.warn(
    [
      line,
      `!!  prometheus-rules.test.ts ${NO_PROMTOOL_MARK}: ${promtool} is missing, so the alerting rules are NOT tested.`,
      `!!  ${HOW_TO_GET_PROMTOOL}`,
      `!!  ${promtoolIsRequired ? 'CI=true: this is a FAILURE.' : 'Skipping (outside CI). In CI (CI=true) this fails.'}`,
      line,
    ].join('\n'),
  );
}

interface AlertRuleTest {
  readonly alertname: string;
  readonly exp_alerts?: readonly unknown[];
}

const alerts = (parse(readRepositoryFile(rulesFile)) as { groups: { rules: { alert?: string }[] }[] }).groups
  .flatMap((group) => group.rules)
  .flatMap((rule) => (rule.alert === undefined ? [] : [rule.alert]));
const runbooks = (parse(readRepositoryFile(rulesFile)) as { groups: { rules: { alert?: string; annotations?: { runbook?: string } }[] }[] }).groups
  .flatMap((group) => group.rules)
  .map((rule) => ({ alert: rule.alert ?? '', runbook: rule.annotations?.runbook ?? '' }));
const ruleTests = (parse(readRepositoryFile(testFile)) as { tests: { alert_rule_test?: AlertRuleTest[] }[] }).tests.flatMap(
  (test) => test.alert_rule_test ?? [],
);

/** Runs promtool from the repository root; resolves its output, or rejects with it. */
async function runPromtool(...args: string[]): Promise<string> {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  try {
    const { stdout, stderr } = await promisify(execFile)(promtool, args, { cwd: root });
    return stdout + stderr;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`promtool ${args.join(' ')} failed:\n${stdout}${stderr}`, { cause: error });
  }
}

describe('the Prometheus alerting rules of deploy/prometheus', () => {
  it.runIf(promtoolIsRequired)('have a promtool to test them with (CI=true)', () => {
    throw new Error(`${promtool} is missing: apt-get install -y prometheus`);
  });

  it('test every alert firing on a series that should fire it, and silent on a healthy one', () => {
    expect(alerts.length).toBeGreaterThan(0);
    for (const alert of alerts) {
      const cases = ruleTests.filter((test) => test.alertname === alert);
      expect(cases.some((test) => (test.exp_alerts ?? []).length > 0), `${alert} is never seen firing`).toBe(true);
      expect(cases.some((test) => (test.exp_alerts ?? []).length === 0), `${alert} is never seen silent`).toBe(true);
    }
    // Nor a test of an alert that is not there, which would pass silent for ever.
    for (const test of ruleTests) expect(alerts, `${testFile} tests ${test.alertname}, which ${rulesFile} lacks`).toContain(test.alertname);
  });

  it('each name the section of docs/operations.md that says what to do, as a heading there', () => {
    const page = readRepositoryFile('docs/operations.md').replace(/^```[\s\S]*?^```$/gmu, '');
    const anchors = [...page.matchAll(/^#{2,6} (.+)$/gmu)].map((match) =>
      (match[1] ?? '').toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replaceAll(' ', '-'),
    );
    for (const { alert, runbook } of runbooks) {
      const anchor = /^docs\/operations\.md#([a-z0-9-]+)$/u.exec(runbook)?.[1];
      expect(anchor, `${alert}'s runbook is ${runbook}`).toBeDefined();
      expect(anchors, `${alert}'s runbook`).toContain(anchor);
    }
  });

  it.runIf(hasPromtool)('are valid rules, as promtool check rules reads them', async () => {
    expect(await runPromtool('check', 'rules', rulesFile)).toContain(`SUCCESS: ${alerts.length} rules found`);
  });

  it.runIf(hasPromtool)('are loaded by the Prometheus configuration of docker-compose.several.yml, which promtool check config accepts', async () => {
    const checked = await runPromtool('check', 'config', 'deploy/prometheus/prometheus.yml');
    expect(checked).toContain('is valid prometheus config file syntax');
    expect(checked).toContain(`SUCCESS: ${alerts.length} rules found`);
  });

  it.runIf(hasPromtool)('pass promtool test rules', async () => {
    expect(await runPromtool('test', 'rules', testFile)).toMatch(/SUCCESS/u);
  });
});
