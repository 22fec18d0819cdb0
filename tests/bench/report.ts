/**
 * `npm run bench:report`: the latest run of each benchmark against its baselines and targets, and each
 * figure's trend over the runs recorded in tests/bench/results/*.jsonl (BENCH_RESULTS_DIR to read others).
 *
 *   npx tsx tests/bench/report.ts [bench ...]
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatReport } from './lib/report.js';
import { RESULTS_DIR, type RunRecord, readRuns } from './lib/results.js';

const only = process.argv.slice(2);
const files = existsSync(RESULTS_DIR) ? readdirSync(RESULTS_DIR).filter((f) => f.endsWith('.jsonl')) : [];
const byBench = new Map<string, RunRecord[]>();
let skipped = 0;
for (const file of files) {
  const read = readRuns(join(RESULTS_DIR, file));
  skipped += read.skipped;
  for (const run of read.runs) {
    if (only.length > 0 && !only.includes(run.bench)) continue;
    byBench.set(run.bench, [...(byBench.get(run.bench) ?? []), run]);
  }
}
console.log(formatReport(byBench, skipped));
