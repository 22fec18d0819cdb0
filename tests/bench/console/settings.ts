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
// Five, so the median is one load's figure, not the slower of two: at load average 8 to 11 (2026-11-29) single
// loads of the same dashboard moved by a factor of two, and one slow load set the recorded figure.
export const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/**
 * Latest values the 10k company's fleet writes per second while measured (BENCH_FLEET_PER_SECOND): 17 is
 * each device every 10 minutes, a common LoRaWAN reporting interval.
 */
export const FLEET_PER_SECOND = Number(process.env.BENCH_FLEET_PER_SECOND ?? 17);
export const PASSWORD = 'BenchPass#2026';
export const CENTER = { latitude: 48.041477, longitude: 7.576644 };
