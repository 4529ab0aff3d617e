import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig, startService } from '@workplan/app';
import { send } from '@workplan/testing';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readRepositoryFile } from './repository-file.js';

/** What Prometheus adds to every scrape itself, beside what the app exports. */
const SCRAPE_SERIES = ['up'];
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);

/**
 * The metric names a PromQL expression reads: its identifiers, once strings, label
 * matchers, ranges and grouping clauses are taken out, that call nothing (functions and
 * aggregations are followed by a parenthesis) and are no keyword.
 */
export function metricNamesIn(expression: string): string[] {
  const bare = expression
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/gu, '')
    .replace(/\{[^}]*\}/gu, '')
    .replace(/\[[^\]]*\]/gu, '')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/gu, '')
    .replace(/\$\w+/gu, '');
  const names = [...bare.matchAll(/(?<![\w:.])([a-zA-Z_:][\w:]*)(?![\w:]|\s*\()/gu)].map((match) => match[1] ?? '');
  return [...new Set(names.filter((name) => !KEYWORDS.has(name.toLowerCase())))];
}

/** Every series name of a Prometheus text exposition, a histogram's `_bucket`, `_sum` and `_count` included. */
function exportedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [, name = '', type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gmu)) {
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(`${name}${suffix}`);
  }
  return names;
}

interface Panel {
  readonly title?: string;
  readonly targets?: readonly { readonly expr?: string }[];
  readonly panels?: readonly Panel[];
}

const rules = (parse(readRepositoryFile('deploy/prometheus/alerts.yml')) as { groups: { rules: { alert: string; expr: string }[] }[] }).groups.flatMap(
  (group) => group.rules,
);
const dashboard = JSON.parse(readRepositoryFile('deploy/grafana/workplan.json')) as { panels: Panel[]; templating: { list: { definition?: string }[] } };
const panels = (list: readonly Panel[]): Panel[] => list.flatMap((panel) => [panel, ...panels(panel.panels ?? [])]);
const dashboardQueries = [
  ...panels(dashboard.panels).flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: `panel "${panel.title ?? ''}"`, expr: target.expr ?? '' }))),
  ...dashboard.templating.list.flatMap((variable) => (variable.definition === undefined ? [] : [{ where: 'a variable', expr: variable.definition.replace(/^label_values\((.*),\s*\w+\)$/u, '$1') }])),
];

describe('the metrics the alerting rules and the dashboard name', () => {
  it('are read out of PromQL as the names of series, not functions, labels or keywords', () => {
    expect(
      metricNamesIn('sum by (job, le) (rate(a_bucket{route!="/x", s=~"5.."}[5m])) / on(job) group_left(x) b_total > 0.5 and delta(c[30m]) > 256 * 1024 or vector(0)'),
    ).toEqual(['a_bucket', 'b_total', 'c']);
    expect(metricNamesIn('histogram_quantile(0.99, sum by (le) (rate(d{job="w", instance=~"$instance"}[$__rate_interval])))')).toEqual(['d']);
  });

  it('are all exported by the running app at /metrics (on SQLite, with webhooks), or made by the scrape', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'workplan-monitoring-'));
    const webhooks = join(folder, 'webhooks.json');
    // Nothing listens on port 9 of the loopback: the subscription fails, which is what its metrics are for.
    await writeFile(webhooks, JSON.stringify({ subscriptions: [{ name: 'folha', url: 'http://127.0.0.1:9/', secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}` }] }));
    const service = await startService(
      parseConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', API_KEYS: 'monitoring-key-0123456789', SQLITE_PATH: join(folder, 'workplan.db'), WEBHOOKS_FILE: webhooks }),
    );
    let exported: Set<string>;
    try {
      const metrics = await send(service.url, { path: '/metrics' });
      expect(metrics.status).toBe(200);
      exported = exportedNames(metrics.text);
    } finally {
      await service.close();
    }
    const named = [
      ...rules.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr })),
      ...dashboardQueries.map((query) => ({ where: `the dashboard's ${query.where}`, expr: query.expr })),
    ];
    expect(named.length).toBeGreaterThan(rules.length);
    const unknown = named.flatMap(({ where, expr }) =>
      metricNamesIn(expr)
        .filter((name) => !exported.has(name) && !SCRAPE_SERIES.includes(name))
        .map((name) => `${where} names ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});
