import { defineConfig } from 'tsup';

// Workspace packages are TypeScript source: bundle them in; keep npm dependencies external.
export default defineConfig({
  entry: ['src/main.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  noExternal: [/^@iot\//],
  clean: true,
  sourcemap: true,
});
