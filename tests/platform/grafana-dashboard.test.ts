/**
 * The Grafana dashboard shipped in infra/grafana (issue #29): every PromQL expression in it names only
 * metrics the apps export (the process registry that /metrics serves), and every iot_ metric has a panel.
 */
import { readFileSync } from 'node:fs';
import { metricsRegistry } from '@iot/runtime';
import { describe, expect, it } from 'vitest';

const DASHBOARD = new URL('../../infra/grafana/iot-platform.json', import.meta.url);

interface Panel {
  title: string;
  type: string;
  targets?: { expr: string }[];
}

/** Series names as Prometheus stores them: a histogram is its _bucket, _sum and _count series. */
async function exportedSeries(): Promise<Set<string>> {
  const text = await metricsRegistry.metrics();
  const names = new Set<string>(['up']); // Prometheus' own per scrape target
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    if (!name) continue;
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
  }
  return names;
}

/** The metric names an expression reads: a selector's name before `{`, or label_values' first argument. */
function metricNames(expr: string): string[] {
  const selectors = [...expr.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\{/g)].map((m) => m[1] ?? '');
  const labelValues = [...expr.matchAll(/label_values\(\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*,/g)].map(
    (m) => m[1] ?? '',
  );
  return [...selectors, ...labelValues];
}

describe('the Grafana dashboard', () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    panels: Panel[];
    templating: { list: { query?: string | { query: string } }[] };
  };
  const expressions = [
    ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)),
    ...dashboard.templating.list.flatMap((variable) =>
      typeof variable.query === 'object' ? [variable.query.query] : [],
    ),
  ];

  it('reads only metrics the apps export', async () => {
    const exported = await exportedSeries();
    expect(expressions.length).toBeGreaterThan(10);
    for (const expr of expressions) {
      const names = metricNames(expr);
      expect(names.length, expr).toBeGreaterThan(0);
      for (const name of names) expect(exported, `${name} in ${expr}`).toContain(name);
    }
  });

  it('has a panel for every iot_ metric, process memory and event-loop delay', async () => {
    const read = new Set(expressions.flatMap(metricNames));
    const families = (await metricsRegistry.getMetricsAsJSON()).map((metric) => metric.name);
    const wanted = [
      ...families.filter((name) => name.startsWith('iot_')),
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ];
    for (const name of wanted) {
      const shown = [...read].some((series) => series === name || series.startsWith(`${name}_`));
      expect(shown, `${name} has no panel`).toBe(true);
    }
  });
});
