import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Benchmark results as data: every run appends one JSON line to tests/bench/results/<bench>.jsonl, so the
 * history of a figure is in the file (and in git), not in prose. `npm run bench:report` reads them back.
 */

/** A budget a figure must stay within: at most (`atMost`) or at least (`atLeast`) this value. */
export type Target = { atMost: number } | { atLeast: number };

export interface Figure {
  /** What was measured, stable from run to run (the report groups by it): e.g. "ours, 1 in 50 fires: p99". */
  name: string;
  /** null: not reached within the run's bound (e.g. a p99 with mails that never arrived). */
  value: number | null;
  unit: string;
  /** The same quantity's reference path measured in the same run (e.g. batched inserts), when there is one. */
  baseline?: number;
  target?: Target;
  /** Whether `value` is within `target`; absent without a target. */
  met?: boolean;
}

export interface RunRecord {
  bench: string;
  /** ISO 8601, when the run started. */
  date: string;
  commit: { sha: string; dirty: boolean };
  machine: { cpu: string; cores: number; memoryBytes: number; loadAverage: number[] };
  /** The run's arguments and flags (phase lengths, profile, publisher, ...). */
  settings: Record<string, string | number | boolean>;
  figures: Figure[];
  /** Where a record not written by a bench run came from (the seeded history). */
  source?: string;
}

export const RESULTS_DIR =
  process.env.BENCH_RESULTS_DIR ?? fileURLToPath(new URL('../results', import.meta.url));

export function resultsFile(bench: string, dir = RESULTS_DIR): string {
  return join(dir, `${bench}.jsonl`);
}

export function targetMet(value: number | null, target: Target): boolean {
  if (value === null || Number.isNaN(value)) return false;
  return 'atMost' in target ? value <= target.atMost : value >= target.atLeast;
}

/** The checked-out commit and whether the work tree has changes; `unknown` outside a git checkout. */
export function currentCommit(cwd = dirname(fileURLToPath(import.meta.url))): RunRecord['commit'] {
  try {
    const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd,
      encoding: 'utf8',
    });
    return { sha, dirty: status.trim().length > 0 };
  } catch {
    return { sha: 'unknown', dirty: false };
  }
}

export function currentMachine(): RunRecord['machine'] {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryBytes: totalmem(),
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

export function appendRun(record: RunRecord, dir = RESULTS_DIR): string {
  const file = resultsFile(record.bench, dir);
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(record)}\n`);
  return file;
}

function isRunRecord(value: unknown): value is RunRecord {
  const r = value as RunRecord | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.bench === 'string' &&
    typeof r.date === 'string' &&
    Array.isArray(r.figures) &&
    r.figures.every((f) => typeof f?.name === 'string' && (typeof f.value === 'number' || f.value === null))
  );
}

/** The runs of a results file in the order they were written; lines that are not a run are skipped. */
export function readRuns(file: string): { runs: RunRecord[]; skipped: number } {
  if (!existsSync(file)) return { runs: [], skipped: 0 };
  const runs: RunRecord[] = [];
  let skipped = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed: unknown = JSON.parse(line);
      if (isRunRecord(parsed)) runs.push(parsed);
      else skipped += 1;
    } catch {
      skipped += 1;
    }
  }
  return { runs, skipped };
}

export interface FigureInput {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  target?: Target;
}

export interface RunRecorder {
  /** Records a figure; NaN (a phase that did not run) is left out, Infinity is recorded as null. */
  add(figure: FigureInput): void;
  /** Appends the run to its results file and says where. */
  save(): string;
  readonly record: RunRecord;
}

/**
 * Starts a run's record: date, commit and machine (load average) are taken now, at the start. The bench
 * adds each figure where it prints it and calls save() at its end.
 */
export function startRun(
  bench: string,
  settings: RunRecord['settings'] = {},
  dir = RESULTS_DIR,
): RunRecorder {
  const record: RunRecord = {
    bench,
    date: new Date().toISOString(),
    commit: currentCommit(),
    machine: currentMachine(),
    settings,
    figures: [],
  };
  return {
    record,
    add(figure) {
      if (Number.isNaN(figure.value)) return;
      // JSON has no Infinity: a figure past the run's bound (mails that never arrived) is null.
      const entry: Figure = { ...figure, value: Number.isFinite(figure.value) ? figure.value : null };
      if (figure.baseline === undefined || !Number.isFinite(figure.baseline)) delete entry.baseline;
      if (figure.target) entry.met = targetMet(figure.value, figure.target);
      record.figures.push(entry);
    },
    save() {
      const file = appendRun(record, dir);
      console.log(`results: ${record.figures.length} figures appended to ${file}`);
      return file;
    },
  };
}
