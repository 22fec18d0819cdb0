import { defineConfig } from 'vitest/config';

// The fault suite (`npm run test:faults`, issue #28): apps of the distributed profile in processes of their
// own, killed and restarted under load. Apart from `npm test`: each case runs for tens of seconds.
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['tests/faults/**/*.fault.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
  },
});
