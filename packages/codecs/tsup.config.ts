import { defineConfig } from 'tsup';

/**
 * The codec pool's worker thread (src/pool/codec-worker.ts) as one plain JavaScript file a Worker can start
 * from the sources (vitest, tsx) and from every app's bundle alike: dist/codec-worker.js, exported as
 * `@iot/codecs/codec-worker.js`. The package itself stays TypeScript source, bundled by the apps.
 */
export default defineConfig({
  entry: { 'codec-worker': 'src/pool/codec-worker.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  noExternal: [/^@iot\//],
  external: [/^(?!@iot\/)[^./]/],
  clean: true,
  sourcemap: true,
});
