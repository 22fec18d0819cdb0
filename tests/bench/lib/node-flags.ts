import { readFileSync } from 'node:fs';

/**
 * The node flags an app's `npm start` runs with, read from its package.json so that the benches'
 * processes cannot drift from it.
 */
function productionNodeFlags(app: string): string {
  return (
    JSON.parse(readFileSync(new URL(`../../../apps/${app}/package.json`, import.meta.url), 'utf8')) as {
      scripts: { start: string };
    }
  ).scripts.start
    .split(/\s+/)
    .filter((word) => word.startsWith('--'))
    .join(' ');
}

/** apps/ingest's (its README, "Start ingest processes with ..."). */
const INGEST_PRODUCTION_NODE_FLAGS = productionNodeFlags('ingest');

/**
 * Node flags for the benches' ingest processes, set at their start (V8 heap flags such as
 * --max-semi-space-size cannot be changed later). IOT_BENCH_INGEST_NODE_FLAGS overrides them, e.g. to
 * A/B them; unset: the production flags above; set but empty: none.
 */
export const INGEST_NODE_FLAGS = (process.env.IOT_BENCH_INGEST_NODE_FLAGS ?? INGEST_PRODUCTION_NODE_FLAGS)
  .split(/\s+/)
  .filter(Boolean);

/**
 * Node flags of the embedded platform's process (apps/platform `npm start`, the root's too): a bench
 * running the platform in its own process starts itself again with them (rules.bench.ts).
 * IOT_BENCH_PLATFORM_NODE_FLAGS overrides them as above.
 */
export const PLATFORM_NODE_FLAGS = (
  process.env.IOT_BENCH_PLATFORM_NODE_FLAGS ?? productionNodeFlags('platform')
)
  .split(/\s+/)
  .filter(Boolean);
