import { readFileSync } from 'node:fs';

/**
 * The node flags apps/ingest's `npm start` runs with (its README, "Start ingest processes with ..."),
 * read from its package.json so that the benches' ingest processes cannot drift from it.
 */
const INGEST_PRODUCTION_NODE_FLAGS = (
  JSON.parse(readFileSync(new URL('../../../apps/ingest/package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  }
).scripts.start
  .split(/\s+/)
  .filter((word) => word.startsWith('--'))
  .join(' ');

/**
 * Node flags for the benches' ingest processes, set at their start (V8 heap flags such as
 * --max-semi-space-size cannot be changed later). IOT_BENCH_INGEST_NODE_FLAGS overrides them, e.g. to
 * A/B them; unset: the production flags above; set but empty: none.
 */
export const INGEST_NODE_FLAGS = (process.env.IOT_BENCH_INGEST_NODE_FLAGS ?? INGEST_PRODUCTION_NODE_FLAGS)
  .split(/\s+/)
  .filter(Boolean);
