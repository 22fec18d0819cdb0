/** The console bench's settings (BENCH_RUNS, BENCH_CONSOLE_BUILD, BENCH_CONSOLE_TEST_BUILD). */
import { fileURLToPath } from 'node:url';

// Other builds (say, of an earlier commit for a before/after comparison) through these two variables.
export const CONSOLE_TEST_BUILD =
  process.env.BENCH_CONSOLE_TEST_BUILD ??
  fileURLToPath(new URL('../../../apps/console/dist-test', import.meta.url));
export const CONSOLE_BUILD =
  process.env.BENCH_CONSOLE_BUILD ?? fileURLToPath(new URL('../../../apps/console/dist', import.meta.url));
export const DEVICES = 10_000;
export const YEAR_ROWS = 365 * 144;
export const RUNS = Number(process.env.BENCH_RUNS ?? 2);
export const PASSWORD = 'BenchPass#2026';
export const CENTER = { latitude: 48.041477, longitude: 7.576644 };
