import { defineConfig } from 'tsup';

// One self-contained ESM file per entry: the workspace packages (@iot/*) are TypeScript sources and
// are bundled in; npm dependencies stay external and are installed beside dist/.
export default defineConfig({
  entry: ['src/main.ts', 'src/create-admin.ts', 'src/migrate.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  noExternal: [/^@iot\//],
  // Every npm package stays external, including the ones only @iot/db needs (pg, PGlite): PGlite finds
  // its WASM and data files next to its own module, which bundling would break.
  external: [/^(?!@iot\/)[^./]/],
});
