import type { Options } from 'tsup';

/**
 * How every Node app is bundled: workspace packages (@iot/*) are TypeScript source and get bundled in;
 * every npm package stays external and is loaded from node_modules at run time (native addons such as
 * argon2 and WASM such as PGlite cannot be bundled anyway).
 */
export const nodeAppBundle: Options = {
  entry: ['src/main.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  noExternal: [/^@iot\//],
  external: [/^(?!@iot\/)[^./]/],
  clean: true,
  sourcemap: true,
};
