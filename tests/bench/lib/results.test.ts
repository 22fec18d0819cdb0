import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendRun, type RunRecord, readRuns, resultsFile, startRun, targetMet } from './results.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bench-results-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const run = (figures: RunRecord['figures']): RunRecord => ({
  bench: 'demo',
  date: '2026-11-28T01:00:00.000Z',
  commit: { sha: 'abc', dirty: false },
  machine: { cpu: 'Test CPU', cores: 2, memoryBytes: 1024, loadAverage: [1, 1, 1] },
  settings: { phaseSeconds: 8 },
  figures,
});

describe('bench results file', () => {
  it('appends one JSON line per run and reads the runs back in order', () => {
    appendRun(run([{ name: 'a', value: 1, unit: 'ms' }]), dir);
    appendRun(run([{ name: 'a', value: 2, unit: 'ms', baseline: 3 }]), dir);
    const lines = readFileSync(resultsFile('demo', dir), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const { runs, skipped } = readRuns(resultsFile('demo', dir));
    expect(skipped).toBe(0);
    expect(runs.map((r) => r.figures[0]?.value)).toEqual([1, 2]);
    expect(runs[1]?.figures[0]?.baseline).toBe(3);
  });

  it('skips malformed lines and keeps the runs around them', () => {
    const file = resultsFile('demo', dir);
    appendRun(run([{ name: 'a', value: 1, unit: 'ms' }]), dir);
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"bench": "demo", trunc\n\n{"bench":"demo"}\n`);
    appendRun(run([{ name: 'a', value: 2, unit: 'ms' }]), dir);
    const { runs, skipped } = readRuns(file);
    expect(runs.map((r) => r.figures[0]?.value)).toEqual([1, 2]);
    expect(skipped).toBe(2);
  });

  it('reads nothing from a file that does not exist', () => {
    expect(readRuns(join(dir, 'none.jsonl'))).toEqual({ runs: [], skipped: 0 });
  });

  it('records date, commit, machine and figures with their target met or not', () => {
    const recorder = startRun('demo', { profile: 'embedded' }, dir);
    recorder.add({ name: 'p99', value: 80, unit: 'ms', target: { atMost: 100 } });
    recorder.add({ name: 'rate', value: 900, unit: '/s', baseline: 1000, target: { atLeast: 1000 } });
    recorder.add({ name: 'skipped phase', value: Number.NaN, unit: 'ms' });
    recorder.add({
      name: 'never arrived',
      value: Number.POSITIVE_INFINITY,
      unit: 'ms',
      target: { atMost: 100 },
    });
    recorder.save();
    const [saved] = readRuns(resultsFile('demo', dir)).runs;
    expect(saved?.bench).toBe('demo');
    expect(Number.isNaN(Date.parse(saved?.date ?? ''))).toBe(false);
    expect(saved?.commit.sha).toMatch(/^[0-9a-f]{40}$|^unknown$/);
    expect(typeof saved?.commit.dirty).toBe('boolean');
    expect(saved?.machine.cores).toBeGreaterThan(0);
    expect(saved?.machine.loadAverage).toHaveLength(3);
    expect(saved?.settings).toEqual({ profile: 'embedded' });
    expect(saved?.figures).toEqual([
      { name: 'p99', value: 80, unit: 'ms', target: { atMost: 100 }, met: true },
      { name: 'rate', value: 900, unit: '/s', baseline: 1000, target: { atLeast: 1000 }, met: false },
      { name: 'never arrived', value: null, unit: 'ms', target: { atMost: 100 }, met: false },
    ]);
  });

  it('judges targets at their bound', () => {
    expect(targetMet(100, { atMost: 100 })).toBe(true);
    expect(targetMet(100.1, { atMost: 100 })).toBe(false);
    expect(targetMet(3, { atLeast: 3 })).toBe(true);
    expect(targetMet(null, { atLeast: 3 })).toBe(false);
  });
});
