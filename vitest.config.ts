import { defineConfig } from 'vitest/config';

// One vitest run covers the whole tree: unit tests sit beside the code (`*.test.ts`),
// cross-app, end-to-end and browser tests live in tests/.
export default defineConfig({
  test: {
    include: ['{apps,packages}/*/src/**/*.test.{ts,tsx}', 'tests/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // expect.poll waits for pages and background work; vitest's 1 s default is too short on a busy 2-core
    // machine (a lazy route chunk alone can take longer), and a longer wait only slows a failing check.
    expect: { poll: { timeout: 15_000 } },
    // Two cores: more workers than that only makes database-heavy suites fight for CPU.
    maxWorkers: 2,
    // CI reads the totals from the JSON report (.ci/run prints "N passed, N failed"); its Node 24 run
    // writes a report of its own (VITEST_JSON).
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: process.env.VITEST_JSON ?? 'test-results/vitest.json' }]]
      : ['default'],
  },
});
