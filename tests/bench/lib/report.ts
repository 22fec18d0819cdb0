import type { Figure, RunRecord, Target } from './results.js';

/**
 * `npm run bench:report`'s text: per benchmark its latest run (figures against their baselines and
 * targets) and each figure's trend over the recorded runs (first, min, max and a sparkline of the last
 * runs). Pure functions of the records, so a fixture tests the layout.
 */

const SPARKS = '▁▂▃▄▅▆▇█';
export const TREND_RUNS = 12;

export function formatNumber(value: number | null | undefined): string {
  if (value === null) return 'n/a';
  if (value === undefined || Number.isNaN(value)) return '';
  const abs = Math.abs(value);
  if (abs >= 100 || Number.isInteger(value)) return Math.round(value).toLocaleString('en');
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

export function formatTarget(target: Target | undefined): string {
  if (!target) return '';
  return 'atMost' in target ? `<= ${formatNumber(target.atMost)}` : `>= ${formatNumber(target.atLeast)}`;
}

/** One character per value, scaled between the values' min and max; a null value is a gap. */
export function sparkline(values: readonly (number | null)[]): string {
  const finite = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (finite.length === 0) return '';
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  return values
    .map((v) => {
      if (v === null || !Number.isFinite(v)) return ' ';
      const step = max === min ? 3 : Math.round(((v - min) / (max - min)) * (SPARKS.length - 1));
      return SPARKS[step];
    })
    .join('');
}

/** Left-aligned text columns, numbers right-aligned; a header row and a rule under it. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = header.map((_h, i) => rows.every((r) => /^[-\d.,<>= ]*$|^n\/a$/.test(r[i] ?? '')));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function runHeader(run: RunRecord, count: number): string {
  // Seeded history may lack what no run printed (memory, load average).
  const memory =
    run.machine.memoryBytes > 0 ? `, ${(run.machine.memoryBytes / 1024 ** 3).toFixed(1)} GB` : '';
  const load = run.machine.loadAverage.length > 0 ? `, load ${run.machine.loadAverage.join(' ')}` : '';
  const commit = `${run.commit.sha.slice(0, 10)}${run.commit.dirty ? ' (dirty)' : ''}`;
  const settings = Object.entries(run.settings)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return (
    `== ${run.bench}: latest run ${run.date}, commit ${commit}` +
    `${run.source ? ` [${run.source}]` : ''}\n` +
    `   ${run.machine.cpu} x ${run.machine.cores}${memory}${load}` +
    `${settings ? `; ${settings}` : ''}; ${count} run${count === 1 ? '' : 's'} recorded`
  );
}

function metText(figure: Figure): string {
  if (figure.met === undefined) return '';
  return figure.met ? 'yes' : 'NO';
}

/** The latest run's figures with the trend of each over every recorded run of the benchmark. */
export function formatBench(recorded: readonly RunRecord[], trendRuns = TREND_RUNS): string {
  // By date (ISO text sorts as time; the sort is stable for equal dates): seeded history may be appended late.
  const runs = [...recorded].sort((a, b) => a.date.localeCompare(b.date));
  const latest = runs.at(-1);
  if (!latest) return '';
  const rows = latest.figures.map((figure) => {
    const history = runs.flatMap((r) => r.figures.filter((f) => f.name === figure.name).map((f) => f.value));
    const finite = history.filter((v): v is number => v !== null);
    return [
      figure.name,
      figure.unit,
      formatNumber(figure.value),
      formatNumber(figure.baseline),
      formatTarget(figure.target),
      metText(figure),
      formatNumber(history[0]),
      finite.length ? formatNumber(Math.min(...finite)) : '',
      finite.length ? formatNumber(Math.max(...finite)) : '',
      String(history.length),
      sparkline(history.slice(-trendRuns)),
    ];
  });
  const header = ['figure', 'unit', 'latest', 'baseline', 'target', 'met', 'first', 'min', 'max', 'runs'];
  return `${runHeader(latest, runs.length)}\n${formatTable([...header, `last ${trendRuns}`], rows)}`;
}

/** Every benchmark's section, in name order, and how many lines of the files were skipped as malformed. */
export function formatReport(byBench: ReadonlyMap<string, readonly RunRecord[]>, skipped = 0): string {
  const sections = [...byBench.keys()]
    .sort()
    .map((bench) => formatBench(byBench.get(bench) ?? []))
    .filter(Boolean);
  if (sections.length === 0) return 'no benchmark results recorded yet (tests/bench/results/*.jsonl)';
  const note = skipped > 0 ? `\n\n${skipped} malformed line(s) skipped` : '';
  return `${sections.join('\n\n')}${note}`;
}
