/**
 * The whole platform in one process: `npm start`. On the embedded profile (the default) it keeps its
 * PostgreSQL (PGlite) under DATA_DIR, seeds the demo data on first start and serves the API, the console
 * and the uplink front doors from one port set. See ARCHITECTURE.md, "Two profiles".
 */
import { loadConfig } from '@iot/config';
import { createLogger, runUntilSignal } from '@iot/runtime';
import { startPlatform } from './start-platform.js';

const config = loadConfig();
const log = createLogger({ level: config.LOG_LEVEL, name: 'platform' });
const platform = await startPlatform({
  config,
  log,
  // Every request would fail from now on: exit, so that the supervisor (systemd, a container runtime)
  // restarts the platform on its files, rather than serve errors.
  onDatabaseLost: (error) => {
    log.fatal({ err: error }, 'embedded database lost, exiting');
    process.exit(1);
  },
});
process.stdout.write(platform.banner);
await runUntilSignal(platform.services, log, {
  onSignal: () => platform.health.drain(),
  deadlineMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
});
