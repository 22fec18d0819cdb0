import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatNumber, formatReport, sparkline } from './report.js';
import { type RunRecord, readRuns } from './results.js';

const fixture = fileURLToPath(new URL('./fixtures/results.jsonl', import.meta.url));

function byBench(runs: RunRecord[]): Map<string, RunRecord[]> {
  const map = new Map<string, RunRecord[]>();
  for (const run of runs) map.set(run.bench, [...(map.get(run.bench) ?? []), run]);
  return map;
}

describe('bench report', () => {
  it('prints the latest run per benchmark with baselines, targets and the trend', () => {
    const { runs, skipped } = readRuns(fixture);
    expect(skipped).toBe(2);
    expect(formatReport(byBench(runs), skipped)).toBe(
      [
        '== ingest: latest run 2026-11-22T10:00:00.000Z, commit bbbbbbbbbb (dirty)',
        '   Test CPU x 2, 8.0 GB, load 2.5 2 1.5; profile=embedded phaseSeconds=8; 3 runs recorded',
        'figure                      unit       latest  baseline     target  met   first    min     max  runs  last 12',
        '--------------------------  ---------  ------  --------  ---------  ---  ------  -----  ------  ----  -------',
        'embedded: sustained         uplinks/s   8,000    52,000  >= 10,000  NO   10,000  8,000  12,000     3  ▅█▁',
        'embedded: p99 at half rate  ms            151                               300    151     300     2  █▁',
        '',
        '== rules: latest run 2026-11-22T11:00:00.000Z, commit dddddddddd',
        '   Test CPU x 2, 8.0 GB, load 3 2 1; 1 run recorded',
        'figure                      unit  latest  baseline  target  met   first     min     max  runs  last 12',
        '--------------------------  ----  ------  --------  ------  ---  ------  ------  ------  ----  -------',
        'ours, every 2nd fires: p99  ms       n/a            <= 100  NO      n/a                     1',
        'ours: rule evaluations/s    /s    90,467                         90,467  90,467  90,467     1  ▄',
        '',
        '2 malformed line(s) skipped',
      ].join('\n'),
    );
  });

  it('says so when nothing is recorded', () => {
    expect(formatReport(new Map())).toMatch(/no benchmark results recorded yet/);
  });

  it('scales a sparkline between min and max and leaves gaps for missing values', () => {
    expect(sparkline([1, 2, 3, null, 8])).toBe('▁▂▃ █');
    expect(sparkline([5, 5])).toBe('▄▄');
    expect(formatNumber(1234.5)).toBe('1,235');
    expect(formatNumber(12.345)).toBe('12.3');
    expect(formatNumber(1.2345)).toBe('1.23');
    expect(formatNumber(0)).toBe('0');
  });
});
